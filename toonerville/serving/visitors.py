"""Who asks for a page: one visitor per browser, named by the server, so that kernels can
be counted per visitor and one client cannot pass for a whole class.

A page request of Voila's (`TornadoVoilaHandler.get`, the only one that starts a kernel)
is wrapped here, once per server process, by `install(manager)`:

* a browser is known by the cookie `COOKIE`, which only the server makes: a random name
  signed with the server's cookie secret (tornado's signed cookies), HTTP only. A cookie
  the client made up, or changed, fails the signature and is ignored, as if there were
  none. A request without a good cookie is answered with a redirect that sets one, back
  to the same address with `MARK` in the query; that second request, with the cookie, is
  redirected once more to the address without `MARK` (what the learner sees). So a
  browser's first page costs two redirects, and a plain HTTP request (a script, `curl`)
  that keeps no cookie and follows no redirect starts no kernel at all;
* a request that comes back with `MARK` but still without a good cookie (a browser that
  refuses cookies, a client that follows redirects but keeps none, or makes its cookies
  up) is served, and its visitor is its address instead;
* a new name counts only once it is let in: the first page a new name (`n.`) asks for
  must be let in by its address's `Door` (at most `new_visitors_burst` new names at once
  and `new_visitors_per_minute` more a minute from one address; a class behind one
  school address shares them), and its cookie is then signed again as a learner's
  (`l.`, the same name), so being let in lives in the cookie and no list of names is
  kept. A name not let in yet is served as its address, and tries again on its next
  page. So a client that throws its cookie away after every page gets a handful of
  names, not a class's worth, and all it holds beyond them is its address's share;
* the secret the names are signed with is kept in a file (`cookie_secret`, read by
  `config/voila.py`), so that a server restarted in the middle of a lesson still knows
  its class's browsers rather than letting them all in again through their door;
* the teacher is the visitor who opens any page once with `?teacher=<key>`, the server's
  teacher key (`teacher_key` of the kernel manager, else `TOONERVILLE_TEACHER_KEY`, else
  one the server makes at start-up and writes to its log): the browser gets a signed
  teacher's name (`teacher:` visitors, with their own cap of kernels) and is redirected
  to the address without the key; a wrong key changes nothing;
* a page is rendered with the kit's two Voila hooks even when no configuration file set
  them (plain `voila notebooks/` reads only `voila.json`): the page texts in every
  language (`texts.page_config_hook`) and the prose in the language of `?lang=`
  (`toonerville.pages.prose_hook.prelaunch_hook`); a hook that was configured is kept;
* while the page is rendered, `current()` says whose request it is, so the kernel
  manager (`kernels.ClassKernelManager.start_kernel`) knows whose kernel it starts; when
  the response has been sent the manager is told (`page_served`), and when the visitor
  hung up before it was (a reload, a closed tab, a script that stops reading) the
  manager gives the kernel back at once (`page_abandoned`): no page can ever connect to it.
"""

from __future__ import annotations

import hmac
import os
import re
import secrets
import time
import urllib.parse
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from .buckets import Bucket

#: the cookie that names a browser (a value the server signed)
COOKIE = "toonerville-visitor"
#: the query parameter of the redirect that sets the cookie
MARK = "tv-visitor"
#: the query parameter that carries the teacher's key
TEACHER = "teacher"
#: a name inside the signed cookie, 32 hex digits after its kind: new, not let in yet
#: ("n."), a learner's ("l.") or the teacher's ("t.")
_NAME = re.compile(r"([nlt])\.([0-9a-f]{32})")
_COOKIE_DAYS = 30
#: addresses whose door is remembered at once, at most (full doors are forgotten first)
_DOORS_KEPT = 4096


class PageHandler(Protocol):
    """What the kernel manager is told about the pages it starts kernels for, and the
    limits on new visitors it was configured with."""

    new_visitors_burst: int
    new_visitors_per_minute: float

    def page_served(self, kernel_id: str) -> None: ...

    def page_abandoned(self, kernel_id: str) -> None: ...

    def teacher_key_value(self) -> str: ...


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


def visitor_key(name: str | None, address: str) -> str:
    """`browser:<hex>` for a learner's signed name, `teacher:<hex>` for the teacher's,
    else `address:<address>` (no name, one that is not the server's, or a new one not let
    in yet)."""
    match = _NAME.fullmatch(name) if name is not None else None
    if match is None or match.group(1) == "n":
        return f"address:{address}"
    return f"{'teacher' if match.group(1) == 't' else 'browser'}:{match.group(2)}"


def is_teacher(visitor: str) -> bool:
    """Is `visitor` (a `visitor_key`) the teacher?"""
    return visitor.startswith("teacher:")


def new_name(teacher: bool = False) -> str:
    """A fresh name for the signed cookie: the teacher's, else a new one (not let in)."""
    return f"{'t' if teacher else 'n'}.{secrets.token_hex(16)}"


def let_in(name: str) -> str:
    """The learner's name a new name becomes once its address's door let it in."""
    return "l." + name[2:] if name.startswith("n.") else name


def _without(uri: str, *names: str) -> str:
    parts = urllib.parse.urlsplit(uri)
    query = [(k, v) for k, v in urllib.parse.parse_qsl(parts.query, keep_blank_values=True)
             if k not in names]
    # (a path starting "//" or "/\\" sends a browser to another host: one slash)
    path = "/" + parts.path.lstrip("/\\")
    return urllib.parse.urlunsplit(("", "", path, urllib.parse.urlencode(query), ""))


def without_mark(uri: str) -> str:
    """The request's path and query with `MARK` taken out of the query."""
    return _without(uri, MARK)


def with_mark(uri: str) -> str:
    clean = without_mark(uri)
    return clean + ("&" if "?" in clean else "?") + f"{MARK}=1"


def cookie_secret_path() -> Path:
    """Where the server's cookie secret is kept: $TOONERVILLE_COOKIE_SECRET_FILE, else
    beside the SQLite file of $TOONERVILLE_STORE, else ~/.toonerville/cookie_secret."""
    given = os.environ.get("TOONERVILLE_COOKIE_SECRET_FILE")
    if given:
        return Path(given)
    store = os.environ.get("TOONERVILLE_STORE", "")
    if store and "://" not in store:
        return Path(store).expanduser().resolve().parent / "toonerville-cookie-secret"
    return Path.home() / ".toonerville" / "cookie_secret"


def cookie_secret(path: Path | None = None) -> bytes:
    """The server's cookie secret (32 random bytes), made and written (readable by its
    owner only) the first time."""
    path = cookie_secret_path() if path is None else path
    try:
        secret = path.read_bytes()
        if len(secret) >= 32:
            return secret
    except OSError:
        pass
    secret = secrets.token_bytes(32)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(secret)
    return secret


class Door:
    """How many new names each address may let in: at most `burst` at once and
    `per_minute` more a minute (a token bucket per address; a `burst` of 0 lets every
    name in). One per server process (`install`)."""

    def __init__(self, burst: int, per_minute: float) -> None:
        self.burst = max(0, burst)
        self.per_second = max(0.0, per_minute) / 60.0
        self._doors: dict[str, Bucket] = {}

    def admit(self, address: str, now: float | None = None) -> bool:
        """May one more new name from `address` be let in now? (takes its token)"""
        if self.burst == 0:
            return True
        now = time.monotonic() if now is None else now
        door = self._doors.get(address) or Bucket.full(self.burst, self.per_second, now)
        after = door.take(1, now)
        if after is None:
            return False
        self._doors[address] = after
        if len(self._doors) > _DOORS_KEPT:  # memory stays bounded: forget full doors
            for known in [a for a, bucket in self._doors.items() if bucket.is_full(now)]:
                del self._doors[known]
        return True


_installed: list[Any] = []
_door: list[Door] = []


def install(manager: PageHandler) -> None:
    """Wrap Voila's page handler so that `manager` learns whose page each kernel serves.

    The last manager installed is the one told (one per server process)."""
    from voila.tornado.handler import TornadoVoilaHandler

    _installed[:] = [manager]
    _door[:] = [Door(manager.new_visitors_burst, manager.new_visitors_per_minute)]
    if getattr(TornadoVoilaHandler, "_toonerville_visitors", False):
        return
    render = TornadoVoilaHandler.get
    closed = TornadoVoilaHandler.on_connection_close

    async def get(self: Any, path: str | None = None) -> None:
        name = _signed_name(self)
        address = self.request.remote_ip or "unknown"
        key = self.get_query_argument(TEACHER, None)
        if key is not None:
            if _is_teacher_key(key) and not (name or "").startswith("t."):
                _set_name(self, new_name(teacher=True))
            self.redirect(_without(self.request.uri, TEACHER, MARK))
            return
        marked = self.get_query_argument(MARK, None) is not None
        if name is None:
            if not marked:
                _set_name(self, new_name())
                self.redirect(with_mark(self.request.uri))
                return
            visitor = visitor_key(None, address)
        elif marked:
            self.redirect(without_mark(self.request.uri))
            return
        else:
            if name.startswith("n.") and _door and _door[0].admit(address):
                name = let_in(name)
                _set_name(self, name)
            visitor = visitor_key(name, address)
        _default_hooks(self)
        request = PageRequest(visitor)
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


def _signed_name(handler: Any) -> str | None:
    """The name in the request's cookie if the server signed it, else None."""
    try:
        value = handler.get_signed_cookie(COOKIE, max_age_days=_COOKIE_DAYS)
    except Exception:  # no cookie secret, a cookie tornado cannot read: no name
        return None
    if value is None:
        return None
    name = value.decode("ascii", "replace")
    return name if _NAME.fullmatch(name) else None


def _set_name(handler: Any, name: str) -> None:
    handler.set_signed_cookie(COOKIE, name, path=handler.base_url or "/", httponly=True,
                              samesite="Lax", expires_days=_COOKIE_DAYS)


def _is_teacher_key(key: str) -> bool:
    expected = _installed[0].teacher_key_value() if _installed else ""
    return bool(expected) and hmac.compare_digest(key.encode(), expected.encode())


def _default_hooks(handler: Any) -> None:
    """The kit's hooks on a page handler that was configured without them."""
    if getattr(handler, "page_config_hook", None) is None:
        from .texts import page_config_hook

        handler.page_config_hook = page_config_hook
    if getattr(handler, "prelaunch_hook", None) is None:
        from ..pages.prose_hook import prelaunch_hook

        handler.prelaunch_hook = prelaunch_hook


def _abandon(request: PageRequest) -> None:
    """The visitor left before their page was sent: its kernel can never be connected."""
    if request.done:
        return
    request.done = True
    if request.kernel_id is not None and _installed:
        _installed[0].page_abandoned(request.kernel_id)
