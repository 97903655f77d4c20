"""Chat prompts: the model's template, llama.cpp's built-in formats, the plain fallback."""

from __future__ import annotations

import pytest

from desktop.lmsp.runtime import ChatMessage, LlamaEngine, PromptFormatError
from desktop.lmsp.runtime.prompt_format import render_chat_prompt

# Gemma 3's chat template (text parts), as shipped in its tokenizer_config.json.
GEMMA3_TEMPLATE = (
    "{{ bos_token }}\n"
    "{%- if messages[0]['role'] == 'system' -%}\n"
    "    {%- set first_user_prefix = messages[0]['content'] + '\\n\\n' -%}\n"
    "    {%- set loop_messages = messages[1:] -%}\n"
    "{%- else -%}\n"
    '    {%- set first_user_prefix = "" -%}\n'
    "    {%- set loop_messages = messages -%}\n"
    "{%- endif -%}\n"
    "{%- for message in loop_messages -%}\n"
    "    {%- if (message['role'] == 'user') != (loop.index0 % 2 == 0) -%}\n"
    '        {{ raise_exception("Conversation roles must alternate '
    'user/assistant/user/assistant/...") }}\n'
    "    {%- endif -%}\n"
    "    {%- if (message['role'] == 'assistant') -%}\n"
    '        {%- set role = "model" -%}\n'
    "    {%- else -%}\n"
    "        {%- set role = message['role'] -%}\n"
    "    {%- endif -%}\n"
    "    {{ '<start_of_turn>' + role + '\\n' + (first_user_prefix if loop.first else \"\") }}\n"
    "    {%- if message['content'] is string -%}\n"
    "        {{ message['content'] | trim }}\n"
    "    {%- endif -%}\n"
    "    {{ '<end_of_turn>\\n' }}\n"
    "{%- endfor -%}\n"
    "{%- if add_generation_prompt -%}\n"
    "    {{'<start_of_turn>model\\n'}}\n"
    "{%- endif -%}\n"
)

CONVERSATION = [
    ChatMessage("system", "You are terse."),
    ChatMessage("user", "Hi"),
    ChatMessage("assistant", "Hello!"),
    ChatMessage("user", "Name a colour"),
]
EXPECTED_GEMMA_TURNS = (
    "<start_of_turn>user\nYou are terse.\n\nHi<end_of_turn>\n"
    "<start_of_turn>model\nHello!<end_of_turn>\n"
    "<start_of_turn>user\nName a colour<end_of_turn>\n"
    "<start_of_turn>model\n"
)


def _render(messages: list[ChatMessage], template: str | None, architecture: str) -> str:
    return render_chat_prompt(
        messages,
        chat_template=template,
        architecture=architecture,
        bos_token="<bos>",
        eos_token="<eos>",
    )


def test_the_models_own_template_is_rendered_with_a_generation_prompt() -> None:
    assert _render(CONVERSATION, GEMMA3_TEMPLATE, "gemma3") == "<bos>" + EXPECTED_GEMMA_TURNS


def test_a_gemma_file_without_template_uses_the_built_in_gemma_format() -> None:
    assert _render(CONVERSATION, None, "gemma3") == EXPECTED_GEMMA_TURNS


def test_an_unknown_model_without_template_gets_a_plain_transcript() -> None:
    prompt = _render(CONVERSATION[1:], None, "mystery")
    assert prompt == "user: Hi\nassistant: Hello!\nuser: Name a colour\nassistant:"


def test_a_template_that_rejects_the_messages_raises_prompt_format_error() -> None:
    messages = [ChatMessage("user", "Hi"), ChatMessage("user", "Hi again")]
    with pytest.raises(PromptFormatError, match="alternate") as caught:
        _render(messages, GEMMA3_TEMPLATE, "gemma3")
    assert caught.value.code == "invalid_request"


def test_a_conversation_needs_a_message_with_a_known_role() -> None:
    with pytest.raises(PromptFormatError):
        _render([], None, "gemma3")
    with pytest.raises(ValueError, match="role"):
        ChatMessage("tool", "{}")


@pytest.mark.model
def test_format_prompt_gives_gemma_turn_tokens_after_one_bos(engine: LlamaEngine) -> None:
    tokens = engine.format_prompt([ChatMessage("user", "Write a haiku about SQLite")])
    bos, start_of_turn = 2, 105  # Gemma's <bos> and <start_of_turn>
    assert tokens[0] == bos
    assert tokens.count(bos) == 1
    assert tokens.count(start_of_turn) == 2  # the user's turn and the model's
    model_turn = engine.format_prompt([ChatMessage("user", "x")])[-3:]
    assert tokens[-3:] == model_turn  # "<start_of_turn>model\n" ends every prompt
    assert model_turn[0] == start_of_turn
