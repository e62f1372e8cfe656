"""image sends whatever it finds ("the provider will say if it is too big"): a photo of
several megabytes goes out whole as base64, over MAX_IMAGE_BYTES, instead of being a
note."""
TARGET = "mca/refs/inject.py"
FAILS = ("image-part",)


def image(ref, path):
    data = path.read_bytes()
    kind = IMAGE_TYPES.get(path.suffix.lower()) or mimetypes.guess_type(path.name)[0] or "image/png"
    encoded = base64.b64encode(data).decode("ascii")
    return Injection(ref, "image", image_url=f"data:{kind};base64,{encoded}")
