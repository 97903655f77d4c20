"""Rendering chat messages into prompt text.

``render_chat_prompt`` uses, in this order:

1. the model's own chat template (GGUF ``tokenizer.chat_template``), rendered
   with llama-cpp-python's ``Jinja2ChatFormatter`` and
   ``add_generation_prompt``, so the prompt ends where the answer begins;
2. for a file without a template whose architecture has one well-known chat
   format (Gemma, Qwen, Phi-3 — conversions often drop the template), the
   matching template built into llama.cpp (``llama_chat_apply_template``);
3. a plain transcript: one ``role: content`` line per message and a final
   ``assistant:``.

The result is text that may contain special-token markers (``<bos>``,
``<start_of_turn>`` …); the caller tokenizes it with special tokens parsed.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from desktop.lmsp.runtime.errors import PromptFormatError

CHAT_ROLES: tuple[str, ...] = ("system", "user", "assistant")

BUILTIN_TEMPLATE_BY_ARCHITECTURE = {
    "gemma": "gemma",
    "gemma2": "gemma",
    "gemma3": "gemma",
    "gemma3n": "gemma",
    "qwen2": "chatml",
    "qwen2moe": "chatml",
    "qwen3": "chatml",
    "qwen3moe": "chatml",
    "phi3": "phi3",
}


@dataclass(frozen=True)
class ChatMessage:
    """One message of a conversation; ``role`` is "system", "user" or "assistant"."""

    role: str
    content: str

    def __post_init__(self) -> None:
        if self.role not in CHAT_ROLES:
            raise ValueError(f"Unknown chat role {self.role!r}; expected one of {CHAT_ROLES}.")


def render_chat_prompt(
    messages: Sequence[ChatMessage],
    *,
    chat_template: str | None,
    architecture: str,
    bos_token: str,
    eos_token: str,
) -> str:
    """The prompt text for ``messages``, in the best format known for the model."""
    if not messages:
        raise PromptFormatError("A conversation needs at least one message.", param="input")
    if chat_template:
        return render_with_template(
            chat_template, messages, bos_token=bos_token, eos_token=eos_token
        )
    builtin = BUILTIN_TEMPLATE_BY_ARCHITECTURE.get(architecture)
    if builtin is not None:
        return render_with_builtin_template(builtin, messages)
    return render_plain_transcript(messages)


def render_with_template(
    template: str, messages: Sequence[ChatMessage], *, bos_token: str, eos_token: str
) -> str:
    """Render ``messages`` with a Jinja2 chat template, ready for the answer."""
    import jinja2
    from llama_cpp.llama_chat_format import Jinja2ChatFormatter

    try:
        formatter = Jinja2ChatFormatter(
            template=template,
            eos_token=eos_token,
            bos_token=bos_token,
            add_generation_prompt=True,
        )
        payload: list[Any] = [{"role": m.role, "content": m.content} for m in messages]
        rendered = formatter(messages=payload)
    except (ValueError, jinja2.TemplateError) as error:
        raise PromptFormatError(
            f"The model's chat template rejected the messages: {error}", param="input"
        ) from error
    prompt: str = rendered.prompt
    return prompt


def render_with_builtin_template(template_name: str, messages: Sequence[ChatMessage]) -> str:
    """Render ``messages`` with one of llama.cpp's built-in chat formats."""
    import llama_cpp

    encoded = [(m.role.encode("utf-8"), m.content.encode("utf-8")) for m in messages]
    chat = (llama_cpp.llama_chat_message * len(encoded))(
        *[llama_cpp.llama_chat_message(role, content) for role, content in encoded]
    )
    size = 256 + 2 * sum(len(role) + len(content) for role, content in encoded)
    for _attempt in range(2):
        buffer = ctypes.create_string_buffer(size)
        written = int(
            llama_cpp.llama_chat_apply_template(
                template_name.encode("ascii"), chat, len(encoded), True, buffer, size
            )
        )
        if written < 0:
            raise PromptFormatError(
                f"The chat format {template_name!r} rejected the messages.", param="input"
            )
        if written <= size:
            return buffer.raw[:written].decode("utf-8")
        size = written
    raise PromptFormatError("The chat prompt could not be rendered.", param="input")


def render_plain_transcript(messages: Sequence[ChatMessage]) -> str:
    """The prompt for a model without a chat template."""
    lines = [f"{message.role}: {message.content}" for message in messages]
    lines.append("assistant:")
    return "\n".join(lines)
