"""``python -m kaiser_sim``: the same as the ``kaiser-sim`` command."""

from .cli import main

if __name__ == "__main__":
    main(prog_name="kaiser-sim")
