"""A one-line footer of key bindings that looks like Textual's ``Footer(compact=True)``.

Footer is a container of one widget per key, and it recomposes on every bindings change:
mounting ~15 widgets, CSS, a layout and a render of each (20-40 ms). KeyBar is one widget
drawing one cached line; a change of bindings costs a repaint of that line, never a layout.
"""

from __future__ import annotations

from collections import defaultdict
from itertools import groupby
from typing import TYPE_CHECKING, ClassVar, NamedTuple

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.reactive import var
from textual.strip import Strip
from textual.widget import Widget

if TYPE_CHECKING:
    from textual.binding import Binding
    from textual.screen import Screen


class _Key(NamedTuple):
    """One key as drawn (FooterKey's arguments); `description` is empty inside a group."""

    key: str
    display: str
    description: str
    enabled: bool
    tooltip: str
    action: str = ""


class _Group(NamedTuple):
    """Keys of consecutive actions sharing a Binding.Group, drawn under one label (KeyGroup)."""

    keys: tuple[_Key, ...]
    label: str
    compact: bool


def _group_label(label: str, descriptions: list[str]) -> str:
    """A group's label for the keys it shows now: "New/Edit/Del" over n, e and d, but
    "Edit/Del" where only e and d are offered (the Tenant section). Each part of a label made
    of "/"-separated words stays when a shown key's description starts with it."""
    parts = label.split("/")
    kept = [part for part in parts if any(d.startswith(part) for d in descriptions)]
    return "/".join(kept) if kept and len(kept) < len(parts) else label


def _action(item: _Key | _Group) -> str:
    """The action of a key, or of a group's first key, without its parameters."""
    key = item if isinstance(item, _Key) else item.keys[0]
    return key.action.split("(")[0]


_Shown = tuple[tuple[_Key | _Group, ...], _Key | None]
"""What the bar draws: the keys from the left, and the command palette key on the right."""

_Run = tuple[str, tuple[str, ...], _Key | None]
"""A piece of the line: its text, the component classes of its style, the key it belongs to."""

_ITEM, _HOVER, _DISABLED = "key-bar--item", "key-bar--hover", "key-bar--disabled"
_KEY, _DESCRIPTION = "key-bar--key", "key-bar--description"
_LABEL, _SEPARATOR = "key-bar--label", "key-bar--separator"
_SEPARATOR_CHAR = "▏"  # the left edge of the "vkey" border Footer puts before the palette key


class _Line(NamedTuple):
    """The line drawn for one width, and where each key lies on it (for the mouse)."""

    width: int
    strip: Strip
    spans: tuple[tuple[int, int, _Key], ...]


class KeyBar(Widget):
    """The screen's active bindings on one line, as ``Footer(compact=True)`` draws them.

    It refreshes (repaint only) when what it would draw changes; a click on a key presses it.
    """

    ALLOW_SELECT = False

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        _ITEM,
        _HOVER,
        _DISABLED,
        _KEY,
        _DESCRIPTION,
        _LABEL,
        _SEPARATOR,
    }
    """One class per style of Footer's (8.2) DEFAULT_CSS: `item`, `hover` and `disabled` are
    FooterKey's own background, `:hover` and `.-disabled`; `label` is FooterLabel's; the
    `separator` is the colour of the border left of the command palette key."""

    DEFAULT_CSS = """
    KeyBar {
        dock: bottom;
        height: 1;
        color: $footer-foreground;
        background: $footer-background;
        & > .key-bar--item { background: $footer-item-background; }
        & > .key-bar--hover { color: $footer-key-foreground; background: $block-hover-background; }
        & > .key-bar--disabled { text-style: dim; }
        & > .key-bar--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        & > .key-bar--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        & > .key-bar--label {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        & > .key-bar--separator { color: $foreground 20%; }
    }
    """

    KEEP: ClassVar[frozenset[str]] = frozenset({"help", "back", "stop_or_back", "save", "dismiss"})
    """Actions whose keys stay when the line is too narrow for every key: `?`, the way to
    every other key, and the way back. Not `q`, `r`, `p`: every screen has them, so on a
    narrow line the screen's own keys (n, e, d, R on a list) come first."""
    IMPORTANCE: ClassVar[tuple[str, ...]] = (
        "back",
        "stop_or_back",
        "close",
        "cancel",
        "select_cursor",
        "open",
        "save",
        "*",
        "filter",
        "new",
        "edit",
        "delete",
        "invite",
        "resend",
        "toggle",
        "regenerate",
        "toggle_json",
        "sort",
        "sort_reverse",
        "copy_to_profile",
        "object_logs",
        "overview",
        "section",
        "refresh",
        "copy_id",
        "switch_profile",
        "help",
        "quit",
    )
    """The order of the keys on the line, most important first; `*` stands for every action
    not named (a view's own keys: `A`, `w`, ctrl+r, `x`, `]` ...). When the line is too
    narrow, keys are taken while they fit: KEEP ones, then FIRST, then the screen's other
    keys in this order, then those of EVERYWHERE: what goes is the least important, and `?`
    lists them all."""
    FIRST: ClassVar[tuple[str, ...]] = (
        "select_cursor",
        "open",
        "new",
        "edit",
        "delete",
        "invite",
        "resend",
        "toggle",
        "regenerate",
        "filter",
    )
    """What a newcomer reaches for first on a list (open, the changes, the filter): taken
    first on a narrow line, drawn where IMPORTANCE puts them."""
    EVERYWHERE: ClassVar[tuple[str, ...]] = (
        "help",
        "quit",
        "refresh",
        "section",
        "overview",
        "switch_profile",
        "copy_id",
    )
    """The keys every screen has, taken on a narrow line after the screen's own and in this
    order (`?` first); on a wide line they stand where IMPORTANCE puts them."""

    show_command_palette: var[bool] = var(True)
    """Show the command palette key on the right (when the app has a command palette)."""
    combine_groups: var[bool] = var(True)
    """Draw the keys of a Binding.Group under the group's label (else each with its own)."""

    def __init__(
        self,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
        show_command_palette: bool = True,
        combine_groups: bool = True,
        importance: tuple[str, ...] | None = None,
    ) -> None:
        """`importance`: the order of the keys (IMPORTANCE); () keeps Footer's order."""
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self.importance = self.IMPORTANCE if importance is None else importance
        self.set_reactive(KeyBar.show_command_palette, show_command_palette)
        self.set_reactive(KeyBar.combine_groups, combine_groups)
        self._ready = False  # Footer shows nothing before the screen first publishes its bindings
        self._shown: _Shown = ((), None)
        self._hover: _Key | None = None  # the key under the mouse
        self._line: _Line | None = None

    # ----- which keys ---------------------------------------------------------------------

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: Screen) -> None:
        # As Footer.bindings_changed: the app's blur also publishes; keep the keys until it
        # has the focus back (it publishes again then).
        self._ready = True
        if screen.app.app_focus and self.is_attached and screen is self.screen:
            self.update_keys()

    def _watch_show_command_palette(self) -> None:
        self.update_keys()

    def _watch_combine_groups(self) -> None:
        self.update_keys()

    def update_keys(self) -> None:
        """Read the screen's active bindings again; repaint if what is drawn changes."""
        if not self._ready or not self.is_attached:
            return
        shown = self._collect()
        if shown != self._shown:
            self._shown = shown
            self._line = None
            self.refresh()
            if self._hover is not None:  # the keys moved under the mouse
                x, y = self.app.mouse_position - self.content_region.offset
                self._set_hover(self._key_at(x) if y == 0 else None)

    def _collect(self) -> _Shown:
        """The keys as Footer.compose (textual 8.2) lays them out, in its order."""
        app = self.app
        active_bindings = self.screen.active_bindings
        action_to_bindings: defaultdict[str, list[tuple[Binding, bool, str]]] = defaultdict(list)
        for _node, binding, enabled, tooltip in active_bindings.values():
            if binding.show:
                action_to_bindings[binding.action].append((binding, enabled, tooltip))

        items: list[_Key | _Group] = []
        # Only the first key of an action is shown; actions of one group in a row share a label.
        for group, runs in groupby(action_to_bindings.values(), lambda found: found[0][0].group):
            firsts = [found[0] for found in runs]
            if group is not None and len(firsts) > 1 and self.combine_groups:
                keys = tuple(
                    _Key(
                        b.key,
                        app.get_key_display(b),
                        "",
                        enabled,
                        tooltip or b.description,
                        b.action,
                    )
                    for b, enabled, tooltip in firsts
                )
                label = _group_label(group.description, [b.description for b, _e, _t in firsts])
                items.append(_Group(keys, label, group.compact))
            else:
                items.extend(
                    _Key(b.key, app.get_key_display(b), b.description, enabled, tooltip, b.action)
                    for b, enabled, tooltip in firsts
                )

        if self.importance:
            rank = {action: n for n, action in enumerate(self.importance)}
            others = rank.get("*", len(rank))
            items.sort(key=lambda item: rank.get(_action(item), others))
        palette = None
        if self.show_command_palette and app.ENABLE_COMMAND_PALETTE:
            found = active_bindings.get(app.COMMAND_PALETTE_BINDING)
            if found is not None:
                _node, b, enabled, _tooltip = found
                tooltip = b.tooltip or b.description
                palette = _Key(b.key, app.get_key_display(b), b.description, enabled, tooltip)
        return tuple(items), palette

    # ----- drawing ------------------------------------------------------------------------

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._line = None  # a theme or CSS change: the cached line has the old colours

    def _key_runs(self, key: _Key, *parts: tuple[str, str]) -> list[_Run]:
        """A FooterKey: its background (or hover), dimmed if disabled, under each part."""
        item = _HOVER if key == self._hover else _ITEM
        base = (item,) if key.enabled else (item, _DISABLED)
        return [(text, (*base, component), key) for text, component in parts if text]

    def _runs(self, items: tuple[_Key | _Group, ...]) -> list[_Run]:
        """The left part, with the spacing of Footer's compact CSS (margins collapse)."""
        runs: list[_Run] = []
        for item in items:
            if isinstance(item, _Key):
                description = f" {item.description}" if item.description else ""
                runs += self._key_runs(item, (item.display, _KEY), (description, _DESCRIPTION))
                runs.append((" ", (), None))  # FooterKey's margin-right
            else:
                # KeyGroup.-compact: padding-left 1, keys side by side, margin-right 1;
                # else the keys' margins of 1 on each side.
                gap = "" if item.compact else " "
                runs.append((" ", (), None))
                for key in item.keys:
                    runs += self._key_runs(key, (key.display, _KEY))
                    if gap:
                        runs.append((gap, (), None))
                if item.compact:
                    runs.append((" ", (), None))
                runs.append((item.label, (_LABEL,), None))
                # Footer's FooterLabel has no margin, so its label runs into the next key
                # ("New/Edit/Delp Profile"); a space keeps them apart.
                runs.append((" ", (), None))
        return runs

    def _fitted(self, items: tuple[_Key | _Group, ...], width: int) -> tuple[_Key | _Group, ...]:
        """The items that fit in `width` cells, in their order: KEEP keys first, then FIRST,
        then the screen's other keys from the left (most important) while they fit, then
        the EVERYWHERE keys (`?` first) in what room is left."""
        sizes = [sum(cell_len(text) for text, _c, _k in self._runs((item,))) for item in items]
        if sum(sizes) <= width:
            return items
        first, everywhere = set(self.FIRST), {a: n for n, a in enumerate(self.EVERYWHERE)}

        def tier(index: int) -> tuple[int, int]:
            action = _action(items[index])
            if action in everywhere:
                return 2, everywhere[action]
            return (0 if action in first else 1), index

        kept = {i for i, item in enumerate(items) if _action(item) in self.KEEP}
        room = width - sum(sizes[i] for i in kept)
        for index in sorted(range(len(items)), key=tier):
            if index not in kept and sizes[index] <= room:
                kept.add(index)
                room -= sizes[index]
        return tuple(item for i, item in enumerate(items) if i in kept)

    def _palette_runs(self, key: _Key) -> list[_Run]:
        """The command palette key: a thin border on its left, then a margin of 1."""
        description = f" {key.description}" if key.description else ""
        item = _HOVER if key == self._hover else _ITEM
        return [
            (_SEPARATOR_CHAR, (item, _SEPARATOR), key),  # a border: never dimmed
            *self._key_runs(key, (key.display, _KEY), (description, _DESCRIPTION)),
            (" ", (), None),
        ]

    def _style(self, components: tuple[str, ...]) -> Style:
        """The style of a run: its component classes composed over the bar's own style."""
        style = self.get_visual_style(*components).rich_style
        if components[-1:] == (_SEPARATOR,):
            # Footer draws it as a border, blended over the bar's background, not the key's.
            style += Style(color=self.get_visual_style(_SEPARATOR).rich_style.color)
        return style

    def _strip(self, runs: list[_Run], x: int) -> tuple[Strip, list[tuple[int, int, _Key]]]:
        """Segments of the runs, and the span of each key's runs from column `x`."""
        segments: list[Segment] = []
        spans: list[tuple[int, int, _Key]] = []
        for text, components, key in runs:
            width = cell_len(text)
            segments.append(Segment(text, self._style(components)))
            if key is not None:
                if spans and spans[-1][2] is key and spans[-1][1] == x:
                    spans[-1] = (spans[-1][0], x + width, key)
                else:
                    spans.append((x, x + width, key))
            x += width
        return Strip(segments), spans

    def _get_line(self) -> _Line:
        """The line for the current width, built once per change of keys, width or style."""
        width = self.size.width
        if self._line is not None and self._line.width == width:
            return self._line
        items, palette = self._shown
        base = self.get_visual_style().rich_style
        right, right_spans = self._strip(self._palette_runs(palette) if palette else [], 0)
        left_width = max(0, width - right.cell_length)
        left, spans = self._strip(self._runs(self._fitted(items, left_width)), 0)
        left = left.crop_extend(0, left_width, base)
        spans = [
            (start, min(end, left_width), key) for start, end, key in spans if start < left_width
        ]
        spans += [(start + left_width, end + left_width, k) for start, end, k in right_spans]
        strip = Strip.join([left, right]).crop_extend(0, width, base).simplify()
        self._line = _Line(width, strip, tuple(spans))
        return self._line

    def render_line(self, y: int) -> Strip:
        if y:
            return Strip.blank(self.size.width, self.get_visual_style().rich_style)
        return self._get_line().strip

    # ----- mouse --------------------------------------------------------------------------

    def _key_at(self, x: int) -> _Key | None:
        """The key drawn at column `x` of the line, if any."""
        for start, end, key in self._get_line().spans:
            if start <= x < end:
                return key
        return None

    def _key_under(self, event: events.MouseEvent) -> _Key | None:
        offset = event.get_content_offset(self)
        return None if offset is None or offset.y else self._key_at(offset.x)

    def _set_hover(self, key: _Key | None) -> None:
        """Highlight the key under the mouse, with its tooltip, as FooterKey:hover."""
        if key == self._hover:
            return
        self._hover = key
        self._line = None
        self.tooltip = (key.tooltip or None) if key else None
        self.styles.pointer = "default" if key is None else "pointer"
        self.refresh()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self._set_hover(self._key_under(event))

    def on_leave(self, event: events.Leave) -> None:
        self._set_hover(None)

    def on_mouse_down(self, event: events.MouseDown) -> None:
        """As FooterKey (8.2): press the key on mouse down; a bell for a disabled key."""
        key = self._key_under(event)
        if key is None:
            return
        if key.enabled:
            self.app.simulate_key(key.key)
        else:
            self.app.bell()
