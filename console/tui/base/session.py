"""One connection's session: what the console knows while it talks to one tenant.

The app holds exactly one (SessionHost.session, console.tui.base.shell) and makes a new one
on every connect or profile switch, so nothing of a profile (its client, what its service
lacks, its key's permissions, its tenant's name and usage) is carried into the next. The
header follows the current session through the app's `session_signal`: the session publishes
itself on it whenever what the header shows of it changes, and the app when it replaces it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

if TYPE_CHECKING:
    from textual.signal import Signal

    from console.client.client import AdminClient
    from console.tui.base.connection import Connection

__all__ = ["HeaderFields", "Session"]

ValueT = TypeVar("ValueT")


@dataclass(frozen=True)
class HeaderFields:
    """What the header shows of a session (console.tui.widgets.console_header)."""

    profile: str = ""
    base_url: str = ""
    tenant: str = ""
    summary: str = ""
    """The usage line, with the forecast warning after it when there is one."""
    read_only: bool = False
    unavailable: frozenset[str] = frozenset()
    """Sections the service in use does not offer: shown struck through."""
    badge: str = ""
    """The profile's label (e.g. PROD), shown reversed in `badge_color`."""
    badge_color: str = ""
    notice: str = ""
    """A warning about what the header shows (the service unreachable, the demo stopped)."""


class _Shown(Generic[ValueT]):
    """An attribute of a session that the header shows: kept in `_<name>`, and setting it
    publishes the session (Session._publish, once per actual change)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self._stored = f"_{name}"

    @overload
    def __get__(self, session: None, owner: type) -> _Shown[ValueT]: ...
    @overload
    def __get__(self, session: Session, owner: type) -> ValueT: ...
    def __get__(self, session: Session | None, owner: type) -> Any:
        return self if session is None else getattr(session, self._stored)

    def __set__(self, session: Session, value: ValueT) -> None:
        setattr(session, self._stored, value)
        session._publish()


class Session:
    """One connection and what was learnt over it. Setting what the header shows (the
    connection, tenant name, usage, notice, what the service lacks) publishes the session on
    `changed`, once per actual change; everything else is plain state."""

    def __init__(
        self,
        connection: Connection | None = None,
        *,
        read_only: bool = False,
        changed: Signal[Session] | None = None,
    ) -> None:
        """`changed`: where the session says it changed (the app's session_signal)."""
        self._changed = changed
        self._connection = connection
        self.read_only = read_only
        """Read-only mode (--read-only): the same for every session of an app."""
        self.client: AdminClient | None = None
        """The connection's client once made (the app makes it after the first rows)."""
        self.key_rejected = False
        """The service answered 401 to this connection's key."""
        self.tenant_id: object | None = None
        """The tenant's id, once read: the usage history keys its reports by it."""
        self._tenant_name = ""
        self._usage_line = ""
        self._usage_warning = ""
        self._header_notice = ""
        self._unavailable: set[str] = set()
        # The key's own application (GET /applications/key), asked once per session
        # (console.tui.actions.key_permissions): until `key_known`, neither is known.
        self.key_known = False
        self.key_asking = False
        """Whether GET /applications/key is on its way now."""
        self.key_application_id: str | None = None
        self.key_permissions: frozenset[str] | None = None
        """The key's permissions; None if the service would not say."""
        self._shown = self.header_fields()

    def __repr__(self) -> str:
        return f"Session({self._connection!r}, read_only={self.read_only})"

    # ---- what the header shows -------------------------------------------------------------

    def header_fields(self) -> HeaderFields:
        """The header's view of this session."""
        connection = self._connection
        usage, warning = self._usage_line, self._usage_warning
        return HeaderFields(
            profile=connection.label if connection else "",
            base_url=(connection.display_url or connection.base_url) if connection else "",
            tenant=self._tenant_name,
            summary=f"{usage}  {warning}" if usage and warning else usage,
            read_only=self.read_only,
            unavailable=frozenset(self._unavailable),
            badge=(connection.badge or "") if connection else "",
            badge_color=(connection.color or "") if connection else "",
            notice=self._header_notice,
        )

    def _publish(self) -> None:
        """Tells the header, if what it shows of this session changed."""
        fields = self.header_fields()
        if fields == self._shown:
            return
        self._shown = fields
        if self._changed is not None:
            self._changed.publish(self)

    connection: _Shown[Connection | None] = _Shown()
    """Set to the same tenant with another key when the session's key was regenerated."""
    tenant_name: _Shown[str] = _Shown()
    usage_line: _Shown[str] = _Shown()
    """The header's usage summary ("MAT 870 / 1,000 (87%)"); "" when not known now."""
    usage_warning: _Shown[str] = _Shown()
    """The forecast warning: the plan will be passed within seven days (issue 28)."""
    header_notice: _Shown[str] = _Shown()
    """Why the header's tenant and usage may be out of date (shown instead of the usage)."""

    @property
    def unavailable(self) -> set[str]:
        """What the service in use does not offer (section keys, "keys", "regenerate"); add
        through mark_unavailable, so the header follows."""
        return self._unavailable

    def mark_unavailable(self, feature: str) -> None:
        self._unavailable.add(feature)
        self._publish()

    # ---- the key -------------------------------------------------------------------------

    def know_key(self, application_id: str | None, permissions: frozenset[str] | None) -> None:
        """What GET /applications/key said of the key (Nones: the service would not say)."""
        self.key_application_id, self.key_permissions = application_id, permissions
        self.key_known = True
