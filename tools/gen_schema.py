"""Write the JSON Schemas of the documented formats to docs/schema/ (run after model changes)."""

import json
from pathlib import Path

from companion.cli.main import schemas

OUT = Path(__file__).resolve().parent.parent / "docs" / "schema"


def main() -> None:
    """Regenerate every schema file."""
    OUT.mkdir(parents=True, exist_ok=True)
    for name, schema in schemas().items():
        (OUT / name).write_text(json.dumps(schema, indent=2, ensure_ascii=False) + "\n",
                                encoding="utf-8")
        print(OUT / name)


if __name__ == "__main__":
    main()
