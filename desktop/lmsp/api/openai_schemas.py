"""Request bodies of the OpenAI-compatible endpoints, and their translation to LMSP requests.

OpenAI clients send many optional fields; unknown ones are ignored, as
OpenAI-compatible servers commonly do. Fields that would change the answer in
a way this service cannot honour (``n`` above 1, tools, log probabilities)
are refused with 400 naming the field. Message content may be a string or a
list of text parts; ``developer`` messages count as ``system`` ones.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from desktop.lmsp.api.schemas import MAX_INPUT_BYTES, MAX_METADATA_KEYS
from desktop.lmsp.errors import InvalidRequest
from desktop.lmsp.requests import ResponseRequest

Role = Literal["system", "developer", "user", "assistant"]
TEXT_PART_TYPES = ("text", "input_text", "output_text")
SEED_RANGE = 2**63


class OpenAiBody(BaseModel):
    model_config = ConfigDict(extra="ignore")


class TextPart(OpenAiBody):
    type: str
    text: str = ""


class ChatMessage(OpenAiBody):
    role: Role
    content: str | list[TextPart] | None = None


class StreamOptions(OpenAiBody):
    include_usage: bool = False


class ChatCompletionBody(OpenAiBody):
    """``POST /openai/v1/chat/completions``."""

    model: str = Field(min_length=1, max_length=256)
    messages: list[ChatMessage] = Field(min_length=1)
    max_tokens: int | None = Field(default=None, ge=1, le=32768)
    max_completion_tokens: int | None = Field(default=None, ge=1, le=32768)
    temperature: float | None = Field(default=None, ge=0.0, le=2.0)
    top_p: float | None = Field(default=None, gt=0.0, le=1.0)
    seed: int | None = None
    stop: str | list[str] | None = None
    stream: bool = False
    stream_options: StreamOptions | None = None
    n: int | None = Field(default=None, ge=1, le=1)
    tools: list[Any] | None = Field(default=None, max_length=0)
    logprobs: bool | None = None
    metadata: dict[str, str] | None = Field(default=None, max_length=MAX_METADATA_KEYS)

    @field_validator("stop")
    @classmethod
    def _at_most_four_stops(cls, value: str | list[str] | None) -> str | list[str] | None:
        if isinstance(value, list) and len(value) > 4:
            raise ValueError("at most 4 stop sequences")
        return value

    @property
    def stops(self) -> list[str]:
        if self.stop is None:
            return []
        return [self.stop] if isinstance(self.stop, str) else list(self.stop)

    @property
    def include_usage(self) -> bool:
        return bool(self.stream_options and self.stream_options.include_usage)

    def to_request(self) -> ResponseRequest:
        if self.logprobs:
            raise InvalidRequest("logprobs are not available", param="logprobs")
        limit = self.max_completion_tokens or self.max_tokens
        return lmsp_request(
            model=self.model,
            input=[message_dict(m, f"messages.{i}") for i, m in enumerate(self.messages)],
            instructions=None,
            max_output_tokens=limit,
            temperature=self.temperature,
            top_p=self.top_p,
            seed=self.seed,
            background=False,
            stream=self.stream,
            on_restart=None,
            metadata=self.metadata,
        )


class InputMessage(OpenAiBody):
    type: Literal["message"] = "message"
    role: Role
    content: str | list[TextPart]


class CreateResponseBody(OpenAiBody):
    """``POST /openai/v1/responses``."""

    model: str = Field(min_length=1, max_length=256)
    input: str | list[InputMessage]
    instructions: str | None = Field(default=None, max_length=MAX_INPUT_BYTES)
    max_output_tokens: int | None = Field(default=None, ge=1, le=32768)
    temperature: float | None = Field(default=None, ge=0.0, le=2.0)
    top_p: float | None = Field(default=None, gt=0.0, le=1.0)
    seed: int | None = None
    background: bool = False
    stream: bool = False
    on_restart: Literal["fail", "retry", "resume"] | None = None
    metadata: dict[str, str] | None = Field(default=None, max_length=MAX_METADATA_KEYS)
    tools: list[Any] | None = Field(default=None, max_length=0)
    previous_response_id: None = None

    def to_request(self) -> ResponseRequest:
        text_or_messages: str | list[dict[str, str]]
        if isinstance(self.input, str):
            text_or_messages = self.input
        else:
            text_or_messages = [message_dict(m, f"input.{i}") for i, m in enumerate(self.input)]
        return lmsp_request(
            model=self.model,
            input=text_or_messages,
            instructions=self.instructions,
            max_output_tokens=self.max_output_tokens,
            temperature=self.temperature,
            top_p=self.top_p,
            seed=self.seed,
            background=self.background,
            stream=self.stream and not self.background,
            on_restart=self.on_restart,
            metadata=self.metadata,
        )


class StreamQuery(OpenAiBody):
    """``GET /openai/v1/responses/{id}?stream=true&starting_after=N``."""

    stream: bool = False
    starting_after: int = Field(default=-1, ge=-1)


def message_dict(message: ChatMessage | InputMessage, param: str) -> dict[str, str]:
    role = "system" if message.role == "developer" else message.role
    content = message.content
    if content is None:
        return {"role": role, "content": ""}
    if isinstance(content, str):
        return {"role": role, "content": content}
    texts = []
    for index, part in enumerate(content):
        if part.type not in TEXT_PART_TYPES:
            raise InvalidRequest(
                f"content parts of type {part.type!r} are not supported; send text",
                param=f"{param}.content.{index}.type",
            )
        texts.append(part.text)
    return {"role": role, "content": "".join(texts)}


def lmsp_request(
    *,
    model: str,
    input: str | list[dict[str, str]],
    instructions: str | None,
    max_output_tokens: int | None,
    temperature: float | None,
    top_p: float | None,
    seed: int | None,
    background: bool,
    stream: bool,
    on_restart: str | None,
    metadata: dict[str, str] | None,
) -> ResponseRequest:
    """A ``ResponseRequest``; values left out take the native API's defaults."""
    texts = [input] if isinstance(input, str) else [m["content"] for m in input]
    texts.append(instructions or "")
    if sum(len(t.encode("utf-8", "surrogatepass")) for t in texts) > MAX_INPUT_BYTES:
        raise InvalidRequest("the input must be at most 256 KiB of text", param="input")
    if any(len(k) > 64 or len(v) > 512 for k, v in (metadata or {}).items()):
        raise InvalidRequest(
            "metadata keys are at most 64 characters, values at most 512", param="metadata"
        )
    defaults = ResponseRequest(model=model, input="")
    return ResponseRequest(
        model=model,
        input=input,
        instructions=instructions,
        max_output_tokens=max_output_tokens or defaults.max_output_tokens,
        temperature=defaults.temperature if temperature is None else temperature,
        top_p=defaults.top_p if top_p is None else top_p,
        seed=None if seed is None else seed % SEED_RANGE,
        background=background,
        stream=stream,
        on_restart=on_restart,
        metadata=dict(metadata or {}),
    )
