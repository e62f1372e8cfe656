"""The conversation and the command line every day: the whole history is sent each turn,
the system prompt once; the REPL's edges; one-line errors and exit statuses."""

from __future__ import annotations

import sys

import pytest

from mca.cli import main
from mca.gateway.mock import MockGateway
from mca.repl import run_repl

from .days import DAY, since
from .fakeserver import closed_port_url, error_body


class Recording:
    """The mock, keeping a copy of every message list it was sent (day 1 or streamed)."""

    def __init__(self, inner=None) -> None:
        self.inner = inner or MockGateway()
        self.requests: list[list[dict]] = []

    def complete(self, messages):
        self.requests.append([dict(m) for m in messages])
        return self.inner.complete(messages)

    def stream(self, messages, tools=None):
        self.requests.append([dict(m) for m in messages])
        return self.inner.stream(messages, tools)


def make_chat(gateway, tmp_path, tools=None):
    """A Chat the way this day's CLI builds one."""
    from mca.chat import Chat

    if DAY == 1:
        return Chat(gateway)
    from mca.chat import Agent
    from mca.screen import Screen

    if DAY == 2:
        return Chat(Agent(gateway), Screen())
    from mca.tools.registry import default_tools

    tools = tools or default_tools(tmp_path)
    if DAY <= 4:
        return Chat(Agent(gateway, tools), Screen())
    from mca.tools.approval import Approver

    approver = Approver.for_tools(tools, yes=True)
    if DAY <= 6:
        return Chat(Agent(gateway, tools, approver), Screen())
    return Chat(tmp_path / ".sessions", Agent(gateway, tools, approver, {"gateway": "mock", "model": "mock",
                                                                         "base_url": None}), Screen())


def plain(messages: list[dict]) -> list[tuple[str, str]]:
    return [(m["role"], m.get("content", "")) for m in messages]


def test_every_request_carries_the_whole_history_with_one_system_prompt_first(tmp_path):
    gateway = Recording()
    chat = make_chat(gateway, tmp_path)
    for text in ("my name is Ada", "what is my name?", "hello"):
        chat.ask(text)
    chat.close()
    first, second, third = gateway.requests
    assert [role for role, _ in plain(second)] == ["system", "user", "assistant", "user"]
    assert plain(second)[1:] == [("user", "my name is Ada"), ("assistant", "Nice to meet you, Ada."),
                                 ("user", "what is my name?")]
    assert plain(third)[:4] == plain(second) and len(third) == 6
    assert [m["role"] for m in third].count("system") == 1 and third[0]["role"] == "system"


def test_the_name_comes_back_because_the_history_does(tmp_path, capsys):
    chat = make_chat(Recording(), tmp_path)
    chat.ask("my name is Ada")
    reply = chat.ask("what is my name?")
    chat.close()
    shown = reply if DAY == 1 else capsys.readouterr().out  # day 2+ streams it to the screen
    assert "Your name is Ada." in shown


@since(3, "tools")
def test_after_a_tool_fails_unexpectedly_the_conversation_goes_on(tmp_path, capsys):
    """A tool that raises something no one planned for must not leave a call without its result:
    the next request would be a history no model accepts."""
    from mca.tools.base import Tool
    from mca.tools.registry import ToolRegistry

    def broken(args):
        raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")
    tools = ToolRegistry([Tool("read_file", "read", {"type": "object", "properties": {"path": {"type": "string"}},
                                                     "required": ["path"]}, broken, read_only=True)])
    gateway = Recording()
    chat = make_chat(gateway, tmp_path, tools)
    chat.ask("read logo.png")
    chat.ask("my name is Ada")
    chat.close()
    out, err = capsys.readouterr()
    assert "Nice to meet you, Ada." in out and "invalid history" not in err
    assert "UnicodeDecodeError" in err + str(gateway.requests[-1])  # the failure was said, or fed back


# --- the REPL ----------------------------------------------------------------------------------

class FakeChat:
    def __init__(self) -> None:
        self.asked: list[str] = []
        self.closed = False

    def ask(self, text: str) -> str:
        self.asked.append(text)
        return f"reply to {text}"

    def close(self) -> None:
        self.closed = True


def lines_then(*lines, end=EOFError):
    prompts: list[str] = []
    queue = list(lines)

    def read_line(prompt: str) -> str:
        prompts.append(prompt)
        if not queue:
            raise end
        item = queue.pop(0)
        if isinstance(item, BaseException):
            raise item
        return item
    return read_line, prompts


def test_the_repl_skips_empty_lines_survives_ctrl_c_and_leaves_on_eof(capsys):
    chat = FakeChat()
    read_line, prompts = lines_then("", "   ", "hello", KeyboardInterrupt(), "again")
    assert run_repl(chat, read_line) == 0
    assert chat.asked == ["hello", "again"] and chat.closed
    assert set(prompts) == {"you > "} and len(prompts) == 6


def test_exit_leaves_and_nothing_after_it_is_read(capsys):
    chat = FakeChat()
    read_line, prompts = lines_then("/exit", "never")
    assert run_repl(chat, read_line) == 0
    assert chat.asked == [] and len(prompts) == 1 and chat.closed


@pytest.mark.parametrize("terminal", [False, True], ids=["piped", "terminal"])
def test_exit_ends_the_prompt_line_when_the_input_is_piped(capsys, monkeypatch, terminal):
    """Piped input is not echoed, so `/exit` leaves the prompt's line open: the REPL ends it (as
    the end of input does). On a terminal the Enter that sent `/exit` has ended it: no blank line."""
    class Stdin:
        def isatty(self):
            return terminal

    monkeypatch.setattr(sys, "stdin", Stdin())
    read_line, _ = lines_then("/exit")
    assert run_repl(FakeChat(), read_line) == 0
    out = capsys.readouterr().out
    banner = out.split("\n")[0]
    assert banner.startswith("mca: ") and out == banner + "\n" + ("" if terminal else "\n")


# --- the command line -----------------------------------------------------------------------------

@pytest.fixture
def cli_env(tmp_path, workspace, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in ("MCA_API_KEY", "MCA_BASE_URL", "MCA_MODEL", "MCA_SESSIONS_DIR", "MOCK"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MCA_WORKDIR", str(workspace))
    if DAY >= 6:  # the retry pauses are asked for, not waited (the loop's `sleep` is a parameter)
        from mca.agent import loop
        monkeypatch.setitem(loop.run_turn.__kwdefaults__, "sleep", lambda seconds: None)
    return monkeypatch


def test_one_shot_prints_the_reply_on_stdout_and_exits_0(cli_env, capsys):
    cli_env.setenv("MOCK", "1")
    assert main(["my", "name", "is", "Ada"]) == 0
    out, err = capsys.readouterr()
    assert out == "Nice to meet you, Ada.\n"
    assert "model: the mock" in err


def test_bad_usage_exits_2(cli_env):
    with pytest.raises(SystemExit) as exit_info:
        main(["--no-such-option"])
    assert exit_info.value.code == 2


def test_an_unreachable_server_is_one_line_naming_the_url_and_exit_1(cli_env, capsys):
    url = closed_port_url()
    cli_env.setenv("MCA_API_KEY", "k")
    cli_env.setenv("MCA_BASE_URL", url)
    assert main(["hello"]) == 1
    out, err = capsys.readouterr()
    failures = [line for line in err.splitlines() if "cannot reach" in line]
    assert failures and all(f"{url}/chat/completions" in line for line in failures)
    assert len(failures) == 1 or DAY >= 6  # day 6 retries a refused connection: one line per attempt
    assert "Traceback" not in err and out.strip() == ""


def test_an_http_error_is_one_line_with_status_and_message_and_exit_1(cli_env, capsys, server_with):
    server = server_with((401, error_body("Incorrect API key provided"), {"Content-Type": "application/json"}))
    cli_env.setenv("MCA_API_KEY", "wrong")
    cli_env.setenv("MCA_BASE_URL", server.url)
    assert main(["hello"]) == 1
    _, err = capsys.readouterr()
    (line,) = [line for line in err.splitlines() if "HTTP 401" in line]
    assert line.endswith("HTTP 401: Incorrect API key provided") and "Traceback" not in err
    assert len(server.requests) == 1  # a bad key is not worth a second try
