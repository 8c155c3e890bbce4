"""Live previews of the served in-app campaigns (issue 17), for the dashboard.

GET /_sandbox/in-app/preview?id=<campaign> answers the campaign as the SDK
would show it: an HTML campaign is its author markup wrapped in the SDK's own
document (the Content-Security-Policy <meta> first, then the joryioBridge
script), with every `http-equiv` renamed as the SDK renames it, and the same
policy in the response's header; a native campaign is a card drawn from its
data (every text escaped) inside that same document.

The document's parts come from inapp_document.json, which `joryio-tools
inapp-document` writes from the Swift builder (`make generate-previews`) and
`make check-generated` keeps in step, so the sandbox never has a second copy
of the policy to drift. The native card here is a sketch for the dashboard;
the faithful picture of a native message is `joryio-tools preview-campaign`.
"""

from __future__ import annotations

import html
import copy
import json
import re
from pathlib import Path
from typing import Any

from .routing import CONTROL_PREFIX, Request, Response, Router
from .wire import WireError

DOCUMENT: dict[str, str] = json.loads((Path(__file__).parent / "inapp_document.json").read_text("utf-8"))

_PRAGMA = re.compile("http-equiv", re.IGNORECASE | re.ASCII)  # ASCII case only, as the Swift builder


def document(author_html: str) -> str:
    """The SDK's document around `author_html` (InAppHTMLDocument.html)."""
    return DOCUMENT["prefix"] + _PRAGMA.sub(DOCUMENT["neutralizedPragma"], author_html) + DOCUMENT["suffix"]


_CARD_STYLE = (
    "<style>body{margin:0;font:15px/1.35 -apple-system,'Helvetica Neue',Arial,sans-serif;"
    "background:#f2f2f7;color:#111}@media (prefers-color-scheme:dark){body{background:#000;color:#f2f2f7}"
    ".card{background:#1c1c1e!important}}.card{margin:16px;padding:16px;border-radius:16px;background:#fff;"
    "box-shadow:0 6px 20px #0003}.type{font-size:11px;text-transform:uppercase;letter-spacing:.06em;"
    "opacity:.6}h1{font-size:17px;margin:6px 0}.image{height:90px;border-radius:10px;background:#8883;"
    "display:flex;align-items:center;justify-content:center;font-size:12px;opacity:.8;margin:8px 0}"
    "button{display:block;width:100%;margin-top:8px;padding:10px;border:0;border-radius:10px;font:inherit;"
    "font-weight:600;background:transparent;color:#0a84ff}button.primary{background:#0a84ff;color:#fff}"
    "button.close{width:auto;margin:0 0 0 auto;padding:2px 8px;color:inherit;opacity:.5}</style>"
)


def native_markup(campaign_type: str, native: dict[str, Any]) -> str:
    """A card for a native campaign: headline, text, an image placeholder
    (previews load nothing), buttons with their ids and links for the
    bridge, a close control. Every string is escaped."""
    def text(value: Any) -> str:
        return html.escape(value if isinstance(value, str) else "", quote=True)

    parts = [_CARD_STYLE, '<div class="card">',
             '<button class="close" data-joryio-action="close" aria-label="Close">&#x2715;</button>',
             f'<div class="type">{text(campaign_type)}</div>']
    if native.get("headline"):
        parts.append(f"<h1>{text(native['headline'])}</h1>")
    if native.get("text"):
        parts.append(f"<p>{text(native['text'])}</p>")
    if native.get("imageUrl"):
        parts.append('<div class="image">image (not loaded in previews)</div>')
    buttons = native.get("buttons") if isinstance(native.get("buttons"), list) else []
    for index, button in enumerate(buttons):
        if not isinstance(button, dict):
            continue
        url = button.get("url")
        link = f' data-joryio-url="{text(url)}"' if isinstance(url, str) else ""
        kind = "primary" if index == 0 else "secondary"
        parts.append(f'<button class="{kind}" data-joryio-id="{text(button.get("id"))}"{link}>'
                     f"{text(button.get('label'))}</button>")
    parts.append("</div>")
    return "".join(parts)


def preview(campaign: dict[str, Any]) -> str:
    """The document a campaign previews as."""
    content = campaign.get("content") if isinstance(campaign.get("content"), dict) else {}
    if isinstance(content.get("html"), str):
        return document(content["html"])
    native = content.get("native") if isinstance(content.get("native"), dict) else {}
    return document(native_markup(str(campaign.get("type", "")), native))


def get_preview(request: Request) -> Response:
    campaign_id = request.query.get("id", [None])[0]
    if not campaign_id:
        raise WireError(400, "bad_request", "give ?id=<campaign id>")
    entry = request.app.state.in_app_transaction(lambda store: copy.deepcopy(store.campaigns.get(campaign_id)))
    if entry is None:
        raise WireError(404, "campaign_not_found")
    return Response(200, raw=preview(entry["campaign"]).encode("utf-8"),
                    content_type="text/html; charset=utf-8",
                    headers={"Content-Security-Policy": DOCUMENT["contentSecurityPolicy"]})


def register(router: Router) -> None:
    router.control("GET", f"{CONTROL_PREFIX}/in-app/preview", get_preview)
