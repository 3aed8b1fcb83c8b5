"""KeyBar against Textual's Footer(compact=True): the same line (text and colours) for the same
screen, repaint-only updates when the bindings change, clicks, hover, cropping and themes."""

from __future__ import annotations

from typing import Any, Literal

import pytest
from rich.style import Style
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.command import CommandPalette
from textual.containers import Horizontal
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Footer, Static

from console.tui.widgets.key_bar import KeyBar

CHANGE = Binding.Group("New/Edit/Del")
NAV = Binding.Group("Nav", compact=True)

Bar = Literal["key_bar", "footer"]


class Pane(Static, can_focus=True):
    """A focusable widget with a key of its own."""

    BINDINGS = [Binding("p", "pin", "Pin", tooltip="Pin the pane")]

    def action_pin(self) -> None:
        self.app.pressed.append("pin")  # type: ignore[attr-defined]


class KeysScreen(Screen[None]):
    AUTO_FOCUS = ""  # the Pane's key shows once it is focused

    BINDINGS = [
        Binding("a", "add", "Add", tooltip="Add a row"),
        Binding("h", "hidden", "Hidden", show=False),
        Binding("n", "new", "New", group=CHANGE),
        Binding("e", "edit", "Edit", group=CHANGE),
        Binding("d", "delete", "Delete", group=CHANGE),
        Binding("x", "export", "Export"),  # disabled (dimmed) until `can_export`
        Binding("z", "zap", "Zap"),  # hidden while not `can_zap`
        Binding("j,down", "down", "Down", group=NAV),
        Binding("k", "up", "Up", group=NAV),
        Binding("ctrl+s", "save", "Save"),
        Binding("f1", "help", "Help", key_display="F1"),
    ]

    def __init__(self, bar: Bar, **options: Any) -> None:
        super().__init__()
        self.bar = bar
        self.options = {k: v for k, v in options.items() if k != "palette_disabled"}
        self.can_export = False
        self.can_zap = False

    def compose(self) -> ComposeResult:
        yield Pane("pane")
        if self.bar == "footer":
            yield Footer(compact=True, **self.options)
        else:
            yield KeyBar(**{"importance": (), **self.options})  # Footer's order

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "export":
            return True if self.can_export else None
        if action == "zap":
            return self.can_zap
        return True

    def action_add(self) -> None:
        self.app.pressed.append("add")  # type: ignore[attr-defined]

    def action_edit(self) -> None:
        self.app.pressed.append("edit")  # type: ignore[attr-defined]

    def action_export(self) -> None:
        self.app.pressed.append("export")  # type: ignore[attr-defined]

    def action_down(self) -> None:
        self.app.pressed.append("down")  # type: ignore[attr-defined]


class KeysApp(App[None]):
    BINDINGS = [Binding("q", "quit", "Quit")]

    def __init__(self, bar: Bar = "key_bar", palette: bool = True, **options: Any) -> None:
        self.ENABLE_COMMAND_PALETTE = palette  # read in App.__init__
        super().__init__()
        self.bar = bar
        self.options = options
        self.pressed: list[str] = []
        self.bells = 0

    def on_mount(self) -> None:
        self.push_screen(KeysScreen(self.bar, **self.options))

    def bell(self) -> None:
        self.bells += 1

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "command_palette" and self.options.get("palette_disabled"):
            return None
        return True


def bottom_line(app: App[Any]) -> Strip:
    """The screen's last line as the terminal would get it. Screen._compositor is private
    (textual is pinned to 8.2.x); it is the one place where Footer's children are joined."""
    return app.screen._compositor.render_strips()[-1]


def look(strip: Strip) -> list[tuple[str, Any, Any]]:
    """Per cell: the character, its background, and (for non-blanks) colour and weight."""
    cells = []
    for segment in strip:
        style = segment.style or Style()
        for char in segment.text:
            ink = None if char == " " else (style.color, bool(style.bold), bool(style.dim))
            cells.append((char, style.bgcolor, ink))
    return cells


def as_footer(strip: Strip) -> list[tuple[str, Any, Any]]:
    """Our cells with the space KeyBar puts after a group's label taken out (Footer runs the
    label into the next key), and the cells gained given back as blanks before the palette."""
    cells, text = look(strip), strip.text
    gaps = [text.index(label) + len(label) for label in ("New/Edit/Del", " Nav") if label in text]
    for index in sorted(gaps, reverse=True):
        assert cells[index][0] == " "
        del cells[index]
    palette = next((i for i, cell in enumerate(cells) if cell[0] == "▏"), len(cells))
    blank = cells[palette - 1]
    return cells[:palette] + [blank] * len(gaps) + cells[palette:]


async def render_bottom(bar: Bar, size: tuple[int, int] = (120, 6), **options: Any) -> Strip:
    app = KeysApp(bar, **options)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.pause()
        return bottom_line(app)


WIDE = "a Add  n e d New/Edit/Del x Export  jk Nav ^s Save F1 Help q Quit"  # labels kept apart


async def test_same_line_as_footer() -> None:
    ours = await render_bottom("key_bar")
    theirs = await render_bottom("footer")
    assert ours.text.rstrip().startswith(WIDE)
    assert ours.text.endswith("▏^p palette ")
    assert as_footer(ours) == look(theirs)


async def test_same_line_as_footer_without_palette() -> None:
    for options in ({"show_command_palette": False}, {"palette": False}):
        ours = await render_bottom("key_bar", **options)
        theirs = await render_bottom("footer", **options)
        assert "palette" not in ours.text
        assert as_footer(ours)[: len(WIDE) - 2] == look(theirs)[: len(WIDE) - 2]


async def test_disabled_palette_key_as_footer() -> None:
    ours = await render_bottom("key_bar", palette_disabled=True)
    theirs = await render_bottom("footer", palette_disabled=True)
    assert ours.text.endswith("▏^p palette ")
    assert as_footer(ours) == look(theirs)
    assert look(ours)[-10:] != look(await render_bottom("key_bar"))[-10:]  # dimmed


async def test_styles_of_key_description_and_disabled() -> None:
    app = KeysApp()
    async with app.run_test(size=(120, 6)) as pilot:
        await pilot.pause()
        line = bottom_line(app)
        cells = look(line)
        bar = app.screen.query_one(KeyBar)
        key = bar.get_visual_style("key-bar--item", "key-bar--key").rich_style
        description = bar.get_visual_style("key-bar--item", "key-bar--description").rich_style
        assert cells[0] == ("a", key.bgcolor, (key.color, True, False))
        assert cells[2] == ("A", description.bgcolor, (description.color, False, False))
        # The disabled key is dimmed: another colour, still bold.
        x = line.text.index("x Export")
        assert cells[x][2][0] != key.color and cells[x][2][1]


async def test_narrow_line_drops_the_least_important_keys() -> None:
    ours = await render_bottom("key_bar", size=(40, 6))
    assert ours.cell_length == 40
    # Save and Help (the way to every other key) stay; then what a newcomer reaches for
    # first (n, e, d) and the screen's other keys from the left while they fit; q Quit, which
    # every screen has, takes what is left (Footer crops from the right instead).
    assert ours.text == "a Add ^s Save F1 Help       ▏^p palette "
    mid = await render_bottom("key_bar", size=(60, 6))
    assert mid.text.startswith("a Add  n e d New/Edit/Del ^s Save F1 Help       ▏")
    quit_too = await render_bottom("key_bar", size=(70, 6))
    assert quit_too.text.startswith("a Add  n e d New/Edit/Del x Export ^s Save F1 Help q Quit ▏")
    nav_first = await render_bottom("key_bar", size=(76, 6))
    assert nav_first.text.startswith("a Add  n e d New/Edit/Del x Export  jk Nav ^s Save F1 Help ")
    assert "Quit" not in nav_first.text  # the screen's own Nav before the app's q
    every = await render_bottom("key_bar", size=(84, 6))
    assert every.text.startswith(
        "a Add  n e d New/Edit/Del x Export  jk Nav ^s Save F1 Help q Quit"
    )


async def test_very_narrow_and_no_bindings() -> None:
    class Bare(App[None]):
        ENABLE_COMMAND_PALETTE = False

        def compose(self) -> ComposeResult:
            yield KeyBar()

    app = Bare()
    async with app.run_test(size=(30, 4)) as pilot:
        await pilot.pause()
        assert bottom_line(app).text == " " * 30
        bar = app.query_one(KeyBar)
        bar.styles.width = 3
        await pilot.pause()
        assert bar.render_line(0).cell_length == 3
    for width in (1, 5, 11):
        line = await render_bottom("key_bar", size=(width, 4))
        assert line.cell_length == width


async def test_changes_repaint_without_layout_or_children(monkeypatch: pytest.MonkeyPatch) -> None:
    app = KeysApp()
    async with app.run_test(size=(120, 6)) as pilot:
        await pilot.pause()
        screen = app.screen
        bar = screen.query_one(KeyBar)
        calls: list[dict[str, Any]] = []
        original = bar.refresh

        def spy(*regions: Any, **kwargs: Any) -> Widget:
            calls.append(kwargs)
            return original(*regions, **kwargs)

        monkeypatch.setattr(bar, "refresh", spy)
        monkeypatch.setattr(bar, "recompose", lambda: pytest.fail("recomposed"))

        assert "p Pin" not in bottom_line(app).text
        screen.query_one(Pane).focus()
        await pilot.pause()
        assert bottom_line(app).text.startswith("p Pin a Add")

        before = look(bottom_line(app))
        screen.can_export = True
        screen.can_zap = True
        screen.refresh_bindings()
        await pilot.pause()
        text = bottom_line(app).text
        assert "x Export z Zap  jk Nav" in text
        x = text.index("x Export")
        assert look(bottom_line(app))[x] != before[x]  # no longer dimmed

        screen.can_zap = False
        screen.refresh_bindings()
        await pilot.pause()
        assert "Zap" not in bottom_line(app).text

        assert calls, "the bar never refreshed"
        assert not any(call.get("layout") for call in calls)
        assert not bar.children

        # A refresh of the bindings that changes nothing does not repaint.
        calls.clear()
        screen.refresh_bindings()
        await pilot.pause()
        assert calls == []


async def test_click_presses_the_key() -> None:
    app = KeysApp()
    async with app.run_test(size=(120, 6)) as pilot:
        await pilot.pause()
        bar = app.screen.query_one(KeyBar)
        text = bottom_line(app).text
        await pilot.click(bar, offset=(text.index("Add"), 0))  # the description counts too
        await pilot.click(bar, offset=(text.index(" n e d") + 3, 0))  # "e" of the group
        await pilot.click(bar, offset=(text.index("jk"), 0))  # "j", not "down"
        await pilot.pause()
        assert app.pressed == ["add", "edit", "down"]

        await pilot.click(bar, offset=(text.index("x Export"), 0))  # disabled: a bell
        await pilot.click(bar, offset=(text.index("Add") + 3, 0))  # a margin: nothing
        await pilot.pause()
        assert app.pressed == ["add", "edit", "down"]
        assert app.bells == 1

        await pilot.click(bar, offset=(text.index("^p"), 0))
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)


async def hovered_line(bar: Bar, x: int, **options: Any) -> tuple[list[Any], list[Any], Any]:
    """The line before and while the mouse is at column `x` of the bar, and its tooltip."""
    app = KeysApp(bar, **options)
    async with app.run_test(size=(120, 6)) as pilot:
        await pilot.pause()
        before = look(bottom_line(app))
        widget = app.screen.query_one(KeyBar if bar == "key_bar" else Footer)
        await pilot.hover(widget, offset=(x, 0))
        await pilot.pause()
        over = app.screen.get_widget_at(x, app.size.height - 1)[0]
        return before, look(bottom_line(app)), over.tooltip


@pytest.mark.parametrize(
    ("x", "options"),
    [
        (1, {}),  # "Add"
        (9, {}),  # "e" of a group
        (36, {}),  # "j" of a compact group (35 in Footer: KeyBar has a space after a label)
        (26, {}),  # "Export": disabled (25 in Footer)
        (108, {}),  # the palette's border
        (112, {"palette_disabled": True}),
    ],
)
async def test_hover_highlights_the_key_as_footer_does(x: int, options: dict[str, Any]) -> None:
    at = x - 1 if 25 <= x < 43 else x - 2 if 43 <= x < 100 else x  # the same key in Footer
    before, ours, tooltip = await hovered_line("key_bar", x, **options)
    _, theirs, footer_tooltip = await hovered_line("footer", at, **options)
    assert ours != before
    assert ours[x] == theirs[at]
    assert ours[x + 1] == theirs[at + 1]
    assert tooltip == footer_tooltip


async def test_hover_leaves_nothing_behind() -> None:
    app = KeysApp()
    async with app.run_test(size=(120, 6)) as pilot:
        await pilot.pause()
        bar = app.screen.query_one(KeyBar)
        before = look(bottom_line(app))
        await pilot.hover(bar, offset=(1, 0))
        await pilot.pause()
        assert bar.tooltip == "Add a row"
        assert bar.styles.pointer == "pointer"
        await pilot.hover(bar, offset=(90, 0))  # between the keys and the palette
        await pilot.pause()
        assert look(bottom_line(app)) == before
        assert bar.tooltip is None
        assert bar.styles.pointer == "default"


async def test_theme_change_redraws() -> None:
    lines: dict[Bar, list[Any]] = {}
    for bar in ("key_bar", "footer"):
        app = KeysApp(bar)
        async with app.run_test(size=(120, 6)) as pilot:
            await pilot.pause()
            dark = look(bottom_line(app))
            app.theme = "textual-light"
            await pilot.pause()
            line = bottom_line(app)
            lines[bar] = as_footer(line) if bar == "key_bar" else look(line)
            assert look(line) != dark
    assert lines["key_bar"] == lines["footer"]


async def test_combine_groups_off() -> None:
    app = KeysApp(combine_groups=False)
    async with app.run_test(size=(120, 6)) as pilot:
        await pilot.pause()
        assert bottom_line(app).text.startswith("a Add n New e Edit d Delete x Export j Down")


async def test_beside_a_status_in_a_horizontal() -> None:
    class Row(App[None]):
        CSS = """
        #row { dock: bottom; height: 1; }
        #row > KeyBar { dock: none; width: 1fr; }
        #status { width: 8; }
        """
        BINDINGS = [Binding("r", "refresh", "Refresh")]

        def compose(self) -> ComposeResult:
            with Horizontal(id="row"):
                yield KeyBar()
                yield Static("3 of 9", id="status")

    app = Row()
    async with app.run_test(size=(50, 4)) as pilot:
        await pilot.pause()
        bar = app.query_one(KeyBar)
        assert bar.size.width == 42
        assert bottom_line(app).text == "r Refresh" + " " * 21 + "▏^p palette 3 of 9  "


async def test_keys_moving_under_the_mouse_move_the_highlight() -> None:
    app = KeysApp()
    async with app.run_test(size=(120, 6)) as pilot:
        await pilot.pause()
        bar = app.screen.query_one(KeyBar)
        await pilot.hover(bar, offset=(1, 0))
        await pilot.pause()
        assert bar.tooltip == "Add a row"
        app.screen.query_one(Pane).focus()  # "p Pin" comes first: now under the mouse
        await pilot.pause()
        hover = bar.get_visual_style("key-bar--hover").rich_style.bgcolor
        cells = look(bottom_line(app))
        assert "".join(cell[0] for cell in cells[:5]) == "p Pin"
        assert [cell[1] for cell in cells[:7]] == [hover] * 5 + [cells[6][1]] * 2
        assert cells[6][1] != hover
        assert bar.tooltip == "Pin the pane"


async def test_resize_redraws_for_the_new_width() -> None:
    app = KeysApp()
    async with app.run_test(size=(120, 6)) as pilot:
        await pilot.pause()
        await pilot.resize_terminal(40, 6)
        await pilot.pause()
        assert bottom_line(app).text == "a Add ^s Save F1 Help       ▏^p palette "
        await pilot.click(app.screen.query_one(KeyBar), offset=(30, 0))  # "^p"
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)


def test_a_group_label_names_only_the_keys_it_shows() -> None:
    from console.tui.widgets.key_bar import _group_label

    assert _group_label("New/Edit/Del", ["New", "Edit", "Delete"]) == "New/Edit/Del"
    assert _group_label("New/Edit/Del", ["Edit", "Delete"]) == "Edit/Del"
    assert _group_label("Sort", ["Sort up", "Sort down"]) == "Sort"  # one word stays


async def test_keys_in_order_of_importance_and_as_many_as_fit() -> None:
    """The console's order: a view's own keys (a, x, the Nav group) before the change keys;
    narrower, Help stays, then n, e and d (what a newcomer reaches for first), then the
    view's own in that order, then Quit (every screen has it) where room is left."""
    wide = await render_bottom("key_bar", importance=None)
    assert wide.text.startswith("^s Save a Add x Export  jk Nav  n e d New/Edit/Del F1 Help q Quit")
    narrow = await render_bottom("key_bar", size=(60, 6), importance=None)
    # x and the Nav group go, and Quit; the order on the line stays the console's.
    assert narrow.text.startswith("^s Save a Add  n e d New/Edit/Del F1 Help       ▏")
    middle = await render_bottom("key_bar", size=(70, 6), importance=None)
    assert middle.text.startswith("^s Save a Add x Export  n e d New/Edit/Del F1 Help q Quit ▏")
