"""The bundle's entry point: the same ``lmsp-desktop`` command as the installed console script.

PyInstaller freezes this file into ``dist/lmsp-desktop/lmsp-desktop``. Inside
the bundle, ``desktop.ui.resources`` finds ``resources/`` next to the frozen
``desktop`` package, and ``llama_cpp`` finds its shared libraries in
``llama_cpp/lib/``, exactly as in a source checkout.
"""

from desktop.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
