"""The program's entry point, above the engine (`companion`) and the UI (`views`): a CLI
subcommand runs in `companion.cli.main`; without one the app starts (`views.server.start`)."""

import sys


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `vendetta-companion` console script; returns the exit code
    (`companion.cli.main.EXIT_CODES`)."""
    from companion.cli.args import options

    args = options(argv)  # a wrong command line exits 2 here, with its usage
    if args.command is not None:
        from companion.cli.main import main as run  # the engine and documents: a subcommand only

        code = run(argv)
        return code if code is not None else 0
    try:
        from views.server import start
    except ImportError as err:
        if err.name not in ("views.server", "views"):
            raise
        print("the app UI is not installed", file=sys.stderr)
        return 1
    try:
        start(web=args.web, port=args.port, data_dir=args.data_dir, host=args.host)
    except OSError as err:  # e.g. the port is taken; the data folder is shown in the app
        from companion.cli.main import _fail
        from companion.storage import describe_os_error

        return _fail(4, "app", describe_os_error(err))
    return 0


if __name__ == "__main__":
    sys.exit(main())
