"""Data-folder resolution."""

from __future__ import annotations

from pathlib import Path

import platformdirs
import pytest

from companion.storage.paths import resolve_data_dir


def test_order_of_precedence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = {"VENDETTA_DATA_DIR": str(tmp_path / "env"),
           "FLET_APP_STORAGE_DATA": str(tmp_path / "flet")}
    assert resolve_data_dir(str(tmp_path / "cli"), env) == (tmp_path / "cli").resolve()
    assert resolve_data_dir(None, env) == (tmp_path / "env").resolve()
    assert resolve_data_dir("", {**env, "VENDETTA_DATA_DIR": ""}) == (tmp_path / "flet").resolve()
    monkeypatch.setattr(platformdirs, "user_data_dir", lambda *a, **k: str(tmp_path / "os"))
    assert resolve_data_dir(None, {}) == (tmp_path / "os").resolve()
    for name in ("cli", "env", "flet", "os"):
        assert (tmp_path / name).is_dir()


def test_reads_process_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VENDETTA_DATA_DIR", str(tmp_path / "x" / "y"))
    assert resolve_data_dir() == (tmp_path / "x" / "y").resolve()
