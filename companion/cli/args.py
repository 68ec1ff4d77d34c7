"""The command line of `vendetta-companion`, parsed without loading the engine: the app's
entry (`vendetta_companion.py`) reads it before it knows whether a subcommand
(`companion.cli.main`) or the app runs."""

import argparse


def _parser() -> argparse.ArgumentParser:
    """Options and subcommands (docs/formats.md documents them)."""
    parser = argparse.ArgumentParser(
        prog="vendetta-companion",
        description="Referee for Vampire: The Masquerade - Vendetta. Without a subcommand, "
                    "starts the app.")
    parser.add_argument("--web", action="store_true", help="serve the app to browsers")
    parser.add_argument("--port", type=int, default=8550,
                        help="port the app listens on, with or without --web (default 8550)")
    parser.add_argument("--host", help="address to listen on (--web: every interface)")
    parser.add_argument("--data-dir", help="folder for saved games")
    sub = parser.add_subparsers(dest="command")
    for name, arg, text in (("play", "script", "run a game script (docs/formats.md)"),
                            ("score", "file", "score end-of-game positions (§12)")):
        p = sub.add_parser(name, help=text, description=text)
        p.add_argument(arg, help="JSON file")
        p.add_argument("--json", action="store_true", help="print JSON instead of text")
        if name == "play":
            p.add_argument("--events", action="store_true",
                           help="also print every event, random outcomes and causes in words")
        p.add_argument("--data-dir", default=argparse.SUPPRESS, help="accepted, not used")
    for name, action, text in (("heritage", "score", "score a Heritage end-of-game pad"),
                               ("bloodfeud", "tally", "tally a Blood Feud session's Council")):
        p = sub.add_parser(name, help=f"{text} (docs/{name}-format.md)", description=text)
        p.add_argument("action", choices=[action])
        p.add_argument("file", help="JSON file")
        p.add_argument("--json", action="store_true", help="print JSON instead of text")
        p.add_argument("--data-dir", default=argparse.SUPPRESS, help="accepted, not used")
    p = sub.add_parser("catalogue", help="show, export or import the card catalogue",
                       description="The card catalogue: facts shipped with the companion plus "
                                   "values you entered from your own cards.")
    p.add_argument("action", choices=["show", "export", "import"])
    p.add_argument("file", nargs="?", help="JSON file (export/import)")
    p.add_argument("--data-dir", default=argparse.SUPPRESS, help="folder for saved data")
    p = sub.add_parser("games", help="list, export, import, back up or restore saved games",
                       description="Saved games: list; export ID FILE; import FILE; "
                                   "backup FILE; restore FILE.")
    p.add_argument("action", choices=["list", "export", "import", "backup", "restore"])
    p.add_argument("args", nargs="*", help="ID and/or FILE")
    p.add_argument("--data-dir", default=argparse.SUPPRESS, help="folder for saved data")
    return parser


def options(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line, parsed (exits 2 with usage on a wrong one)."""
    return _parser().parse_args(argv)
