"""Gateways: where the model's replies come from."""

from __future__ import annotations

import os
from typing import Mapping

from .base import Gateway, GatewayError, StreamDelta, ToolCallChunk, Usage
from .mock import MockGateway


def make_gateway(env: Mapping[str, str] = os.environ) -> Gateway:
    """The mock when ``MOCK=1`` or no API key is set; otherwise the OpenAI-compatible client."""
    key = env.get("MCA_API_KEY", "")
    if env.get("MOCK") == "1" or not key:
        return MockGateway()
    from .openai_compat import OpenAICompatGateway  # only needed when a key is configured

    return OpenAICompatGateway(
        api_key=key,
        base_url=env.get("MCA_BASE_URL", "https://api.openai.com/v1"),
        model=env.get("MCA_MODEL", "gpt-4o-mini"),
    )


__all__ = ["Gateway", "GatewayError", "MockGateway", "StreamDelta", "ToolCallChunk", "Usage", "make_gateway"]
