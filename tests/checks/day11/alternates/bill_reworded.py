"""The reminder's bill in other words (a hold-out variant): what, the characters and the tokens
are all on the line."""
TARGET = "mca/screen.py"
FAILS = ()


def reminder_bill(event):
    return f"injected: plan reminder, {event.open} open of {event.items} - {event.chars} chars ≈ {event.tokens} tokens"
