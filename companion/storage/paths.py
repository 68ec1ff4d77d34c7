"""Where the companion keeps its data."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import platformdirs

APP_NAME = "vendetta-companion"
DATA_DIR_ENV = "VENDETTA_DATA_DIR"
FLET_DATA_ENV = "FLET_APP_STORAGE_DATA"


def resolve_data_dir(
    cli_value: str | None = None, environ: Mapping[str, str] | None = None,
    create: bool = True,
) -> Path:
    """Pick the data folder and (unless `create` is false: read-only use) create it.

    Order: `--data-dir` value, $VENDETTA_DATA_DIR, $FLET_APP_STORAGE_DATA (packaged Flet app),
    then the OS's per-user data folder.
    Raises: OSError if the folder cannot be created.
    """
    env = os.environ if environ is None else environ
    for raw in (cli_value, env.get(DATA_DIR_ENV), env.get(FLET_DATA_ENV)):
        if raw:
            path = Path(raw).expanduser()
            break
    else:
        path = Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
    if create:
        path.mkdir(parents=True, exist_ok=True)
    return path.resolve()
