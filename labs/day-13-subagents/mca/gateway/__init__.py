"""Gateways: where the model's replies come from."""

from __future__ import annotations

import os
from typing import Mapping

from .base import Gateway, GatewayError, StreamDelta, ToolCallChunk, Usage
from .mock import MockGateway


DEFAULT_BASE_URL = "https://api.openai.com/v1"
DEFAULT_MODEL = "gpt-4o-mini"


def gateway_config(env: Mapping[str, str] = os.environ) -> dict:
    """Which model the environment names: the mock when ``MOCK=1`` or no API key is set,
    otherwise an OpenAI-compatible endpoint. Never holds the key itself."""
    if env.get("MOCK") == "1" or not env.get("MCA_API_KEY", ""):
        return {"gateway": "mock", "model": "mock", "base_url": None}
    return {"gateway": "openai-compatible", "model": env.get("MCA_MODEL") or DEFAULT_MODEL,
            "base_url": env.get("MCA_BASE_URL") or DEFAULT_BASE_URL}


def make_gateway(config: Mapping[str, object] | None = None, env: Mapping[str, str] = os.environ) -> Gateway:
    """The gateway for ``config`` (default: what the environment names); the key comes from the environment."""
    config = config or gateway_config(env)
    if config.get("gateway") != "openai-compatible":
        return MockGateway()
    from .openai_compat import OpenAICompatGateway  # only needed when a real endpoint is used

    return OpenAICompatGateway(api_key=env.get("MCA_API_KEY", ""), base_url=str(config["base_url"]),
                               model=str(config["model"]))


def describe(config: Mapping[str, object]) -> str:
    """One line for the start of a session: which model answers."""
    if config.get("gateway") != "openai-compatible":
        return "model: the mock (set MCA_API_KEY, and leave MOCK unset, for a real one)"
    return f"model: {config['model']} at {config['base_url']}"


__all__ = ["Gateway", "GatewayError", "MockGateway", "StreamDelta", "ToolCallChunk", "Usage", "describe",
           "gateway_config", "make_gateway"]
