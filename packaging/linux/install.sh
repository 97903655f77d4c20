#!/usr/bin/env bash
# Install LMSP Desktop (the one-folder bundle) for one user, or remove it again.
#
#   install.sh [--prefix DIR] [--bundle DIR]      install (default prefix: ~/.local)
#   install.sh [--prefix DIR] --uninstall         remove what install.sh installed
#
# Installs:
#   PREFIX/lib/lmsp-desktop/                      the bundle (executable + _internal/)
#   PREFIX/bin/lmsp-desktop, PREFIX/bin/lmsp      links to the app and its command-line client
#   PREFIX/share/applications/io.github.lmsp.Desktop.desktop
#   PREFIX/share/metainfo/io.github.lmsp.Desktop.metainfo.xml
#   PREFIX/share/icons/hicolor/*/apps/io.github.lmsp.Desktop.{png,svg}
#
# The bundle is the folder this script sits in when it is the bundle's own copy
# (dist/lmsp-desktop/install.sh), else dist/lmsp-desktop of the source tree; or
# --bundle DIR. Your data (models, database, logs) is never touched.
set -euo pipefail

APP_ID="io.github.lmsp.Desktop"
NAME="lmsp-desktop"
PREFIX="${HOME}/.local"
BUNDLE=""
MODE="install_bundle"

usage() {
    sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'
}

while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) PREFIX="${2:?--prefix needs a folder}"; shift 2 ;;
        --prefix=*) PREFIX="${1#--prefix=}"; shift ;;
        --bundle) BUNDLE="${2:?--bundle needs a folder}"; shift 2 ;;
        --bundle=*) BUNDLE="${1#--bundle=}"; shift ;;
        --uninstall) MODE="remove_installed"; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
done

mkdir -p "$PREFIX"
PREFIX="$(cd "$PREFIX" && pwd)"
LIB_DIR="$PREFIX/lib/$NAME"
BIN_DIR="$PREFIX/bin"
PROGRAMS=("$NAME" lmsp)
APPS_DIR="$PREFIX/share/applications"
META_DIR="$PREFIX/share/metainfo"
ICONS_DIR="$PREFIX/share/icons/hicolor"

refresh_caches() {
    if command -v update-desktop-database >/dev/null 2>&1; then
        update-desktop-database -q "$APPS_DIR" || true
    fi
    if command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -d "$ICONS_DIR" ]; then
        gtk-update-icon-cache -q -f -t "$ICONS_DIR" || true
    fi
}

remove_installed() {
    local program
    for program in "${PROGRAMS[@]}"; do
        # Only our own links: never a program of the same name from elsewhere.
        if [ -L "$BIN_DIR/$program" ] && [ "$(readlink "$BIN_DIR/$program")" = "$LIB_DIR/$program" ]; then
            rm -f "$BIN_DIR/$program"
        fi
    done
    rm -rf "$LIB_DIR"
    rm -f "$APPS_DIR/$APP_ID.desktop" "$META_DIR/$APP_ID.metainfo.xml"
    if [ -d "$ICONS_DIR" ]; then
        find "$ICONS_DIR" -path "*/apps/$APP_ID.*" -type f -delete
    fi
    refresh_caches
    echo "Removed LMSP Desktop from $PREFIX."
    echo "Your data is still in ${LMSP_DATA_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/$NAME}" \
        "and your logs in ${XDG_STATE_HOME:-$HOME/.local/state}/$NAME/log; delete them if you wish."
}

find_bundle() {
    local here
    here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
    if [ -n "$BUNDLE" ]; then
        (cd "$BUNDLE" && pwd)
    elif [ -x "$here/$NAME" ] && [ -d "$here/_internal" ]; then
        echo "$here"
    elif [ -x "$here/../../dist/$NAME/$NAME" ]; then
        (cd "$here/../../dist/$NAME" && pwd)
    else
        echo "install.sh: no bundle found; run 'make package' first or pass --bundle DIR" >&2
        return 1
    fi
}

install_bundle() {
    local bundle staging program
    bundle="$(find_bundle)"
    if [ ! -x "$bundle/$NAME" ] || [ ! -d "$bundle/share/icons/hicolor" ]; then
        echo "install.sh: $bundle is not a complete LMSP Desktop bundle" >&2
        exit 1
    fi
    mkdir -p "$PREFIX/lib" "$BIN_DIR" "$APPS_DIR" "$META_DIR" "$ICONS_DIR"
    # Copy next to the old version first, then swap, so a failed copy changes nothing.
    staging="$LIB_DIR.new.$$"
    rm -rf "$staging"
    cp -a "$bundle" "$staging"
    rm -rf "$LIB_DIR"
    mv "$staging" "$LIB_DIR"
    for program in "${PROGRAMS[@]}"; do
        if [ ! -x "$LIB_DIR/$program" ]; then
            continue
        elif [ -e "$BIN_DIR/$program" ] && [ ! -L "$BIN_DIR/$program" ]; then
            echo "install.sh: $BIN_DIR/$program exists and is not a link; left as it is" >&2
        else
            ln -sfn "$LIB_DIR/$program" "$BIN_DIR/$program"
        fi
    done

    sed -e "s|^Exec=.*|Exec=$LIB_DIR/$NAME|" -e "s|^TryExec=.*|TryExec=$LIB_DIR/$NAME|" \
        "$bundle/share/applications/$APP_ID.desktop" > "$APPS_DIR/$APP_ID.desktop"
    chmod 644 "$APPS_DIR/$APP_ID.desktop"
    install -m 644 "$bundle/share/metainfo/$APP_ID.metainfo.xml" "$META_DIR/$APP_ID.metainfo.xml"
    (cd "$bundle/share/icons/hicolor" && find . -path "*/apps/$APP_ID.*" -type f) | while read -r icon; do
        install -D -m 644 "$bundle/share/icons/hicolor/$icon" "$ICONS_DIR/$icon"
    done
    refresh_caches
    echo "Installed LMSP Desktop in $LIB_DIR"
    echo "Start it from your applications menu, or run: $BIN_DIR/$NAME"
}

"$MODE"
