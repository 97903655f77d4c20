"""The bundle's second program, ``lmsp``: the command-line client that ships with the app.

PyInstaller freezes this file into ``dist/lmsp-desktop/lmsp``, next to
``lmsp-desktop`` and sharing its ``_internal/`` folder.
"""

from desktop.client.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
