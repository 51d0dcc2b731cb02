"""The pages of ``roguelike serve`` written by hand (a refusal in one line, the upload and
join forms), and the checks of a form's request: that it comes from the server's own pages
(:func:`same_origin`), and where a join may go next (:func:`local_path`). Every text shown is
escaped."""

from __future__ import annotations

import html
import re
from urllib.parse import urlsplit

from aiohttp import web

#: A join's form (a name and a path), at most, in bytes; where a join may go next (a path of
#: this server: never ``//``, a backslash, a control character or an escape).
MAX_JOIN = 4096
LOCAL_PATH = re.compile(r"/(?!/)[A-Za-z0-9/?=&._~+-]{0,200}", re.ASCII)


PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>{title}</title>
<style>body{{background:#0c181f;color:#eee;font:16px monospace;margin:3em}}
a{{color:#ac5af4}}</style></head>
<body>{body}</body></html>
"""

UPLOAD_FORM = """<h1>Import a challenge or run file</h1>
<form method="post" action="/upload" enctype="multipart/form-data">
<p><input type="file" name="file" id="file"></p>
<p><button type="submit" id="send">Upload and check it</button></p>
</form>
<p>The file is checked by replaying it in a new game tab (at most {most} MiB).
<a href="/">Back to the game</a></p>
"""


JOIN_FORM = """<h1>Join this club</h1>
<p>Choose the name the others will see. This browser keeps it (a cookie): your worlds are
yours alone, the hall is everyone's, and anyone here may watch a game in progress.</p>
<form method="post" action="/club/join">
<p><input name="name" id="name" maxlength="20" autofocus></p>
<input type="hidden" name="next" value="{next}">
<p><button type="submit" id="join">Join</button></p>
</form>
"""


def same_origin(request: web.Request) -> bool:
    """``request`` (a POST) comes from a page of this server: its ``Origin``, or without
    one its ``Referer``, names the host (and port) the request was sent to. A form of another
    site, or a request that says nowhere where it comes from, is not."""
    sent = request.headers.get("Origin") or request.headers.get("Referer")
    if not sent:
        return False
    try:
        url = urlsplit(sent)
    except ValueError:
        return False
    host = request.headers.get("Host", "")
    return url.scheme in ("http", "https") and bool(host) and url.netloc.lower() == host.lower()


def local_path(back: object) -> str:
    """Where a join goes next: ``back`` if it is a plain path of this server (as the join
    page gives it), else ``/``. Checked on a strict pattern, and again on the URL the answer
    would carry (aiohttp normalises it: ``/<TAB>/host`` becomes ``//host``, another site)."""
    if not isinstance(back, str) or not LOCAL_PATH.fullmatch(back):
        return "/"
    if str(web.HTTPSeeOther(back).headers["Location"]) != back:
        return "/"
    return back


def page(title: str, body: str, status: int = 200) -> web.Response:
    return web.Response(
        text=PAGE.format(title=html.escape(title), body=body),
        status=status,
        content_type="text/html",
    )


def refused(line: str, status: int = 400) -> web.Response:
    """A one-line refusal of a request (its text escaped)."""
    return page(
        "Roguelike: refused",
        f'<p id="refused">{html.escape(line)}</p><p><a href="/">The title screen</a></p>',
        status,
    )


def refusal(why: str, status: int = 400) -> web.Response:
    """The one-line refusal of a tab that cannot start (its text escaped)."""
    line = f"Not started: {why}."
    return page(
        "Roguelike: not started",
        f'<p id="refused">{html.escape(line)}</p><p><a href="/">The title screen</a></p>',
        status,
    )
