"""The command line: its arguments (`args`, read before anything heavy loads) and its
subcommands (`main`).

May import every other room of `companion`; nothing imports it.
"""
