"""Loading, swapping and unloading models; the typed load failures."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from desktop.lmsp.runtime import (
    ChatMessage,
    GenerationSettings,
    LlamaEngine,
    ModelLoadError,
    ModelMissing,
    NoModelLoaded,
    llama_cpp_version,
)


def test_a_missing_file_raises_model_missing(tmp_path: Path) -> None:
    engine = LlamaEngine()
    with pytest.raises(ModelMissing) as caught:
        engine.load(tmp_path / "gone.gguf")
    assert isinstance(caught.value, FileNotFoundError)
    assert caught.value.code == "model_missing"
    assert "gone.gguf" in str(caught.value)
    assert engine.loaded_path is None


def test_a_file_that_is_not_gguf_raises_model_load_error(tmp_path: Path) -> None:
    not_a_model = tmp_path / "notes.gguf"
    not_a_model.write_text("these are not weights\n")
    with pytest.raises(ModelLoadError, match="not a GGUF model file") as caught:
        LlamaEngine().load(not_a_model)
    assert caught.value.code == "model_load_failed"


def test_a_damaged_gguf_file_raises_model_load_error(
    tmp_path: Path, starter_model_path: Path
) -> None:
    truncated = tmp_path / "truncated.gguf"
    with starter_model_path.open("rb") as source:
        truncated.write_bytes(source.read(64 * 1024))
    with pytest.raises(ModelLoadError, match="could not load"):
        LlamaEngine().load(truncated)


def test_a_directory_raises_model_load_error(tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError, match="not a file"):
        LlamaEngine().load(tmp_path)


def test_nothing_runs_before_a_model_is_loaded() -> None:
    engine = LlamaEngine()
    with pytest.raises(NoModelLoaded):
        engine.format_prompt([ChatMessage("user", "Hi")])
    with pytest.raises(NoModelLoaded):
        engine.generate([2, 3], GenerationSettings(max_output_tokens=1))


@pytest.mark.model
def test_one_model_stays_warm_and_another_path_replaces_it(
    tmp_path: Path, starter_model_path: Path
) -> None:
    other_path = tmp_path / "same-weights-other-name.gguf"
    other_path.symlink_to(starter_model_path)
    engine = LlamaEngine()
    engine.load(starter_model_path)
    started = time.monotonic()
    engine.load(starter_model_path)
    assert time.monotonic() - started < 0.2  # already loaded: nothing to do
    assert (engine.loaded_path, engine.context_tokens) == (starter_model_path, 4096)
    engine.load(other_path)
    assert (engine.loaded_path, engine.context_tokens) == (other_path, 4096)
    engine.unload()
    assert (engine.loaded_path, engine.context_tokens) == (None, None)
    engine.unload()  # unloading twice is harmless


def test_the_llama_cpp_version_is_reported() -> None:
    assert "0.3.36" in llama_cpp_version()
