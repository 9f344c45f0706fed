"""``python -m bot.engine.replay FILE``: replay a rule scenario and print the outcome as JSON.

Exit 0 even when actions are refused (they show as results); exit 2 with a message on stderr
when the file cannot be read or is not a valid scenario."""

from __future__ import annotations

import json
import sys

from .scenario import MalformedScenario, run


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m bot.engine.replay FILE", file=sys.stderr)
        return 2
    try:
        with open(args[0], encoding="utf-8") as fh:
            data = json.load(fh)
        output = run(data)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, MalformedScenario) as exc:
        print(f"replay: {args[0]}: {exc}", file=sys.stderr)
        return 2
    json.dump(output, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
