"""The command line of the family's other games: `heritage score FILE` (a Heritage
end-of-game pad scored, §H4–§H6) and `bloodfeud tally FILE` (a Blood Feud session's Council
votes tallied, §B9). Text by default, `--json` for programs; exit codes as every subcommand
(`companion.cli.main.EXIT_CODES`): 2 for a file that cannot be used, 1 for a rule refused."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any


class PadRefused(Exception):
    """The file is readable and well formed, but a rule refuses what it holds (exit 1)."""


class PadInput(Exception):
    """The file cannot be used: unreadable, not JSON, not this game's format (exit 2)."""


def cmd_heritage(path: str, as_json: bool) -> int:
    """Score a Heritage game file and print the result."""
    from companion.heritage.errors import HeritageError
    from companion.heritage.pad import load_game, result_text, score

    def run() -> Any:
        return score(load_game(path))

    return _run(run, HeritageError, lambda err: err.key == "format", result_text, as_json)


def cmd_bloodfeud(path: str, as_json: bool) -> int:
    """Tally a Blood Feud session file and print it."""
    from companion.bloodfeud.council import tally_file, tally_text
    from companion.bloodfeud.errors import BloodFeudError, BloodFeudFileError

    return _run(lambda: tally_file(path), BloodFeudError,
                lambda err: isinstance(err, BloodFeudFileError), tally_text, as_json)


def _run(compute: Callable[[], Any], refusal: type[Exception],
         is_input: Callable[[Any], bool], text: Callable[[Any], str], as_json: bool) -> int:
    """Compute, print, and sort a failure into bad input or a rule refused."""
    try:
        result = compute()
    except OSError as err:
        raise PadInput(f"cannot read the file: {err.strerror or err}") from None
    except refusal as err:
        if is_input(err):
            raise PadInput(str(err)) from None
        raise PadRefused(str(err)) from None
    out = json.dumps(result.model_dump(mode="json"), indent=1, ensure_ascii=False) \
        if as_json else text(result)
    sys.stdout.write(out + "\n")
    return 0
