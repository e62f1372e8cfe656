#!/usr/bin/env bash
# Gradescope runs this once, when it builds the autograder's image (made by
# `grader gradescope bundle {{day}}`). It needs a Python 3.11 or newer and PyPI, nothing else.
# AUTOGRADER_ROOT moves /autograder elsewhere (to try the bundle on your own machine);
# AUTOGRADER_PYTHON names the Python to use if the first one found is not the right one.
set -euo pipefail
SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="${AUTOGRADER_ROOT:-/autograder}"
VENV="$ROOT/venv"

PYTHON=""
for candidate in ${AUTOGRADER_PYTHON:-} python3.13 python3.12 python3.11 python3; do
    if command -v "$candidate" > /dev/null 2>&1 &&
        "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2> /dev/null; then
        PYTHON="$candidate"
        break
    fi
done
if [ -z "$PYTHON" ]; then
    echo "setup.sh: the grader needs Python 3.11 or newer and this image has none. Fix: choose a newer base image in the autograder settings (Ubuntu 24.04 has Python 3.12)." >&2
    echo "setup.sh：评分器需要 Python 3.11 或更新版本，而这个镜像里没有。解决：在 autograder 设置里换一个更新的基础镜像（Ubuntu 24.04 自带 Python 3.12）。" >&2
    exit 1
fi
echo "setup.sh: $("$PYTHON" --version 2>&1) ($(command -v "$PYTHON")), venv in $VENV"

rm -rf "$VENV"
if "$PYTHON" -m venv "$VENV"; then
    PIP=("$VENV/bin/python" -m pip)
else    # an image without ensurepip (no pythonX-venv package): an empty venv, filled by the system's pip
    rm -rf "$VENV"
    "$PYTHON" -m venv --without-pip "$VENV"
    PIP=("$PYTHON" -m pip --python "$VENV/bin/python")
fi
"${PIP[@]}" install --no-input --disable-pip-version-check -r "$SOURCE/requirements.txt"
"${PIP[@]}" install --no-input --disable-pip-version-check --no-deps -e "$SOURCE/kit"

# Before any student submits: the kit is the one shipped, and its untouched lab scores what it should.
"$VENV/bin/grader" --course "$SOURCE/kit" verify --student {{day}}
