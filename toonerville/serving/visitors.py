"""Who asks for a page: one visitor per browser, so that kernels can be counted per visitor.

A page request of Voila's (`TornadoVoilaHandler.get`, the only one that starts a kernel)
is wrapped here, once per server process, by `install(manager)`:

* a browser is known by the cookie `COOKIE` (random, HTTP only). A request without it is
  answered with a redirect that sets it, back to the same address with `MARK` in the
  query; that second request, with the cookie, is redirected once more to the address
  without `MARK` (what the learner sees). So a browser's first page costs two redirects,
  and a plain HTTP request (a script, `curl`) that keeps no cookie and follows no
  redirect starts no kernel at all;
* a request that comes back with `MARK` but still without the cookie (a browser that
  refuses cookies, a client that follows redirects but keeps none) is served, and its
  visitor is its address instead;
* a page is rendered with the kit's two Voila hooks even when no configuration file set
  them (plain `voila notebooks/` reads only `voila.json`): the page texts in every
  language (`texts.page_config_hook`) and the prose in the language of `?lang=`
  (`toonerville.prose_hook.prelaunch_hook`); a hook that was configured is kept;
* while the page is rendered, `current()` says whose request it is, so the kernel
  manager (`kernels.ClassKernelManager.start_kernel`) knows whose kernel it starts; when
  the response has been sent the manager is told (`page_served`), and when the visitor
  hung up before it was (a reload, a closed tab, a script that stops reading) the
  manager gives the kernel back at once (`page_abandoned`): no page can ever connect to it.
"""

from __future__ import annotations

import re
import secrets
import urllib.parse
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Protocol

#: the cookie that names a browser
COOKIE = "toonerville-visitor"
#: the query parameter of the redirect that sets the cookie
MARK = "tv-visitor"
_TOKEN = re.compile(r"[0-9a-f]{32}")
_COOKIE_DAYS = 30


class PageHandler(Protocol):
    """What the kernel manager is told about the pages it starts kernels for."""

    def page_served(self, kernel_id: str) -> None: ...

    def page_abandoned(self, kernel_id: str) -> None: ...


@dataclass
class PageRequest:
    """One page request being rendered (owned by its request handler): whose it is, and
    the kernel started for it once there is one."""

    visitor: str
    kernel_id: str | None = None
    done: bool = False


_CURRENT: ContextVar[PageRequest | None] = ContextVar("toonerville_page_request", default=None)


def current() -> PageRequest | None:
    """The page request being rendered in this task, if any."""
    return _CURRENT.get()


def visitor_key(cookie: str | None, address: str) -> str:
    """`browser:<cookie>` for a well-formed cookie, else `address:<address>`."""
    if cookie is not None and _TOKEN.fullmatch(cookie):
        return f"browser:{cookie}"
    return f"address:{address}"


def without_mark(uri: str) -> str:
    """The request's path and query with `MARK` taken out of the query."""
    parts = urllib.parse.urlsplit(uri)
    query = [(k, v) for k, v in urllib.parse.parse_qsl(parts.query, keep_blank_values=True)
             if k != MARK]
    return urllib.parse.urlunsplit(("", "", parts.path, urllib.parse.urlencode(query), ""))


def with_mark(uri: str) -> str:
    clean = without_mark(uri)
    return clean + ("&" if "?" in clean else "?") + f"{MARK}=1"


_installed: list[Any] = []


def install(manager: PageHandler) -> None:
    """Wrap Voila's page handler so that `manager` learns whose page each kernel serves.

    The last manager installed is the one told (one per server process)."""
    from voila.tornado.handler import TornadoVoilaHandler

    _installed[:] = [manager]
    if getattr(TornadoVoilaHandler, "_toonerville_visitors", False):
        return
    render = TornadoVoilaHandler.get
    closed = TornadoVoilaHandler.on_connection_close

    async def get(self: Any, path: str | None = None) -> None:
        cookie = self.get_cookie(COOKIE)
        marked = self.get_query_argument(MARK, None) is not None
        known = cookie is not None and _TOKEN.fullmatch(cookie) is not None
        if not known:
            self.set_cookie(COOKIE, secrets.token_hex(16), path=self.base_url or "/",
                            httponly=True, samesite="Lax", expires_days=_COOKIE_DAYS)
            if not marked:
                self.redirect(with_mark(self.request.uri))
                return
        elif marked:
            self.redirect(without_mark(self.request.uri))
            return
        _default_hooks(self)
        request = PageRequest(visitor_key(cookie, self.request.remote_ip or "unknown"))
        self._toonerville_page = request
        token = _CURRENT.set(request)
        try:
            await render(self, path)
        except Exception:
            _abandon(request)
            raise
        finally:
            _CURRENT.reset(token)
        if not request.done:
            request.done = True
            if request.kernel_id is not None and _installed:
                _installed[0].page_served(request.kernel_id)

    def on_connection_close(self: Any) -> None:
        request = getattr(self, "_toonerville_page", None)
        if request is not None:
            _abandon(request)
        closed(self)

    TornadoVoilaHandler.get = get
    TornadoVoilaHandler.on_connection_close = on_connection_close
    TornadoVoilaHandler._toonerville_visitors = True


def _default_hooks(handler: Any) -> None:
    """The kit's hooks on a page handler that was configured without them."""
    if getattr(handler, "page_config_hook", None) is None:
        from .texts import page_config_hook

        handler.page_config_hook = page_config_hook
    if getattr(handler, "prelaunch_hook", None) is None:
        from ..prose_hook import prelaunch_hook

        handler.prelaunch_hook = prelaunch_hook


def _abandon(request: PageRequest) -> None:
    """The visitor left before their page was sent: its kernel can never be connected."""
    if request.done:
        return
    request.done = True
    if request.kernel_id is not None and _installed:
        _installed[0].page_abandoned(request.kernel_id)
