"""The pages beside Tasks (Models, Try it, Clients), in sidebar order.

Each page needs service methods that may not exist in every build; a page
whose methods are missing is replaced by a short notice instead of failing.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QLabel, QWidget

from desktop.ui.bridge import ServiceBridge

PageFactory = Callable[[ServiceBridge], QWidget]


def _tr(text: str) -> str:
    return QCoreApplication.translate("Pages", text)


def _models_page(bridge: ServiceBridge) -> QWidget:
    from desktop.ui.models_page import ModelsPage

    return ModelsPage(bridge)


def _try_it_page(bridge: ServiceBridge) -> QWidget:
    from desktop.ui.try_it_page import TryItPage

    return TryItPage(bridge)


def _clients_page(bridge: ServiceBridge) -> QWidget:
    from desktop.ui.clients_page import ClientsPage

    return ClientsPage(bridge)


OPTIONAL_PAGES: tuple[tuple[str, str, tuple[str, ...], PageFactory], ...] = (
    ("models", "Models", ("list_models",), _models_page),
    ("try", "Try it", ("create_response",), _try_it_page),
    ("clients", "Clients", ("list_clients", "revoke_client"), _clients_page),
)


def unavailable_page(title: str) -> QWidget:
    notice = QLabel(
        _tr("{page} is not available in this version of the service.").format(page=title)
    )
    notice.setAlignment(Qt.AlignmentFlag.AlignCenter)
    notice.setWordWrap(True)
    return notice


def build_optional_pages(bridge: ServiceBridge, _parent: QWidget) -> list[tuple[str, str, QWidget]]:
    pages: list[tuple[str, str, QWidget]] = []
    for key, title, needs, factory in OPTIONAL_PAGES:
        shown_title = _tr(title)
        if all(hasattr(bridge.service, name) for name in needs):
            pages.append((key, shown_title, factory(bridge)))
        else:
            pages.append((key, shown_title, unavailable_page(shown_title)))
    return pages
