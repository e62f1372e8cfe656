"""Who the fake model server says it is, drawn once per grading run.

A lab must not learn from its environment that a grader is talking to it, and a
model called `fake-model` with the key `sk-fake-key` would tell it. So the model's
name, the API key and the look of the completion ids are drawn for each run, from
the run's seed (`grader check DAY --seed N` draws them again), among names a
student's own `MCA_MODEL` could hold. The engine draws them before the checks
(`draw(seed)`); code that runs outside a grading (the kit's tests) gets a draw of
its own on first use.

    server.env()              # MCA_MODEL and MCA_API_KEY of this run
    provider.model()          # what a check compares a request's "model" with
"""

from __future__ import annotations

import itertools
import random
import string
import threading
import time
from dataclasses import dataclass

# Names real OpenAI-compatible providers serve, several of them to students in China.
MODELS = ("deepseek-chat", "deepseek-v3", "qwen-plus", "qwen-turbo", "qwen2.5-coder-32b-instruct",
          "glm-4-flash", "glm-4-plus", "moonshot-v1-8k", "moonshot-v1-32k", "doubao-pro-32k",
          "gpt-4o-mini", "gpt-4.1-mini", "yi-lightning", "abab6.5s-chat", "hunyuan-lite")
_ALNUM = string.ascii_letters + string.digits


@dataclass(frozen=True)
class Provider:
    model: str
    api_key: str
    id_stem: str    # seeds the completion ids ("chatcmpl-" and 24 letters and digits, one per reply)
    created: int    # the "created" stamp of every completion: a recent time, as a provider's


def _draw(rng: random.Random) -> Provider:
    key_style = rng.randrange(3)
    if key_style == 0:
        key = "sk-" + "".join(rng.choice("0123456789abcdef") for _ in range(32))
    elif key_style == 1:
        key = "sk-" + "".join(rng.choice(_ALNUM) for _ in range(48))
    else:
        key = "".join(rng.choice("0123456789abcdef") for _ in range(32)) + "." + \
            "".join(rng.choice(_ALNUM) for _ in range(16))
    stem = "".join(rng.choice(_ALNUM) for _ in range(20))
    created = int(time.time()) - rng.randint(0, 3600)
    return Provider(rng.choice(MODELS), key, stem, created)


_lock = threading.Lock()
_current: Provider | None = None


def draw(seed: int) -> Provider:
    """Draw this run's provider from `seed`; every later call of `current()` returns it."""
    global _current
    with _lock:
        _current = _draw(random.Random(f"{seed}:provider"))
        return _current


def current() -> Provider:
    global _current
    with _lock:
        if _current is None:
            _current = _draw(random.Random())
        return _current


def model() -> str:
    return current().model


def api_key() -> str:
    return current().api_key


_served = itertools.count()


def completion_id() -> str:
    """A completion id in the provider's style, another for every reply."""
    n = next(_served)
    rng = random.Random(f"{current().id_stem}:{n}")
    return "chatcmpl-" + "".join(rng.choice(_ALNUM) for _ in range(24))
