//! Drawing the full-screen table: a pure function of a [`Scene`] into a ratatui frame, which
//! also says where the cards, the stock and the pile landed (for the mouse).

use gin_cards::{Card, CardSet};
use gin_engine::{Action, Phase, PlayerView};
use gin_rules::{GameResult, HandOutcome, Meld, Player};
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout as Split, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize as _};
use ratatui::symbols::border;
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};

use super::super::screen::{self, HandEnd, Layout, Seats};
use crate::render::{Look, plural};

/// How the table looks: the cards' look (suit symbols or letters, colour or none), and
/// box-drawing or ASCII lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::play) struct Skin {
    /// Suit symbols (`7♥`) rather than letters (`7H`); colours (red suits, highlights).
    pub look: Look,
    /// ASCII only: lines drawn with `+`, `-` and `|`, card backs with `#`, and letters for
    /// suits.
    pub ascii: bool,
}

impl Skin {
    /// Cards as text in this skin, never with escape codes (ratatui styles them).
    pub(in crate::play) fn text_look(self) -> Look {
        Look { symbols: self.look.symbols && !self.ascii, color: false }
    }

    fn card_text(self, card: Card) -> String {
        self.text_look().card(card)
    }

    /// A card's style: red suits in red where colour is on.
    fn card_style(self, card: Card) -> Style {
        if self.look.color && card.suit().is_red() { Style::new().fg(Color::Red) } else { Style::new() }
    }

    /// A card as a styled span.
    fn card_span(self, card: Card) -> Span<'static> {
        Span::styled(self.card_text(card), self.card_style(card))
    }

    fn border(self) -> border::Set<'static> {
        if self.ascii { ASCII_BORDER } else { border::ROUNDED }
    }

    /// Emphasis: bold, and in colour where colour is on.
    fn strong(self, color: Color) -> Style {
        let style = Style::new().add_modifier(Modifier::BOLD);
        if self.look.color { style.fg(color) } else { style }
    }
}

/// Box lines in ASCII.
const ASCII_BORDER: border::Set<'static> = border::Set {
    top_left: "+",
    top_right: "+",
    bottom_left: "+",
    bottom_right: "+",
    vertical_left: "|",
    vertical_right: "|",
    horizontal_top: "-",
    horizontal_bottom: "-",
};

/// A window over the table.
#[derive(Clone, Debug, PartialEq)]
pub(in crate::play) enum Overlay {
    /// The keys.
    Help,
    /// What the opponent's level would do, with its reasons.
    Hint(Vec<String>),
    /// The whole discard pile.
    Pile,
    /// A knock (or big gin) waiting for its confirmation.
    Knock(Action),
    /// The end of a hand, until a key deals the next.
    HandEnd(HandEnd),
    /// The end of the game: the score sheet, and another game offered.
    GameEnd(GameResult),
    /// A hot seat between turns: nothing of either hand shows.
    PassTo(Player),
}

/// Everything one frame shows.
#[derive(Debug)]
pub(in crate::play) struct Scene<'a> {
    /// The table as the viewer may see it.
    pub view: PlayerView<'a>,
    /// The legal actions, when the viewer is to act; empty otherwise.
    pub legal: &'a [Action],
    pub seats: &'a Seats,
    pub skin: Skin,
    /// The hand shown in its melds; `selected` indexes its display order.
    pub layout: &'a Layout,
    pub selected: usize,
    /// The last moves, in sentences, oldest first.
    pub log: &'a [String],
    /// A line for the player: a refusal or a note (`true`: a warning).
    pub message: Option<&'a (String, bool)>,
    /// What the table waits for when the viewer is not to act (`The AI is thinking`).
    pub waiting: Option<&'a str>,
    pub overlay: Option<&'a Overlay>,
}

/// Where things landed on the screen, for the mouse.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(in crate::play) struct Regions {
    /// Each card of the hand, in display order.
    pub cards: Vec<Rect>,
    pub stock: Option<Rect>,
    pub pile: Option<Rect>,
}

impl Regions {
    /// The hand position under a point, from 0.
    pub(in crate::play) fn card_at(&self, column: u16, row: u16) -> Option<usize> {
        self.cards.iter().position(|rect| rect.contains((column, row).into()))
    }
}

/// The width and height below which the table folds: cards in two characters, panels stacked.
const WIDE: (u16, u16) = (64, 20);

/// The smallest terminal the table is drawn in.
const SMALLEST: (u16, u16) = (36, 12);

/// Draws `scene`; returns where the cards, the stock and the pile are.
pub(in crate::play) fn draw(frame: &mut Frame<'_>, scene: &Scene<'_>) -> Regions {
    let area = frame.area();
    let mut regions = Regions::default();
    match scene.overlay {
        // Screens that hide the table whole.
        Some(Overlay::PassTo(player)) => pass_screen(frame, scene, *player),
        Some(Overlay::HandEnd(end)) => hand_end(frame, scene, end),
        Some(Overlay::GameEnd(result)) => game_end(frame, scene, result),
        _ if area.width < SMALLEST.0 || area.height < SMALLEST.1 => {
            let text = format!("Make the terminal at least {}×{} to see the table (q quits).", SMALLEST.0, SMALLEST.1);
            frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
        }
        overlay => {
            let wide = area.width >= WIDE.0 && area.height >= WIDE.1;
            regions = table(frame, scene, wide);
            match overlay {
                Some(Overlay::Help) => popup(frame, scene.skin, "Keys", help_text(), area),
                Some(Overlay::Hint(lines)) => {
                    popup(frame, scene.skin, "Hint (any key closes)", hint_text(lines), area);
                }
                Some(Overlay::Pile) => pile_popup(frame, scene, area),
                Some(Overlay::Knock(action)) => knock_popup(frame, scene, *action, area),
                _ => {}
            }
        }
    }
    if scene.skin.ascii {
        to_ascii(frame.buffer_mut());
    }
    regions
}

/// Replaces what is left of non-ASCII text (separators, arrows) with ASCII.
fn to_ascii(buffer: &mut Buffer) {
    for cell in &mut buffer.content {
        if cell.symbol().is_ascii() {
            continue;
        }
        let ascii = match cell.symbol() {
            "·" => "-",
            "←" => "<",
            "→" => ">",
            "…" => ".",
            "−" | "–" | "—" | "─" | "━" | "═" => "-",
            "│" | "┃" | "║" => "|",
            _ => "?",
        };
        cell.set_symbol(ascii);
    }
}

/// The table: score, opponent, stock and pile, the last moves, the hand, the status line.
fn table(frame: &mut Frame<'_>, scene: &Scene<'_>, wide: bool) -> Regions {
    let area = frame.area();
    let view = &scene.view;
    let skin = scene.skin;
    let mut regions = Regions::default();
    // The message wraps onto a second line where it needs one.
    let message_rows =
        scene.message.map_or(1, |(text, _)| text.chars().count().div_ceil(usize::from(area.width).max(1)));
    let status_rows = 1 + u16::try_from(message_rows.clamp(1, 3)).unwrap_or(1);
    let [header, opponent, middle, hand, status] = Split::vertical([
        Constraint::Length(1),
        Constraint::Length(if wide { 3 } else { 1 }),
        Constraint::Fill(1),
        Constraint::Length(if wide { 7 } else { 4 }),
        Constraint::Length(status_rows),
    ])
    .areas(area);
    frame.render_widget(Paragraph::new(header_line(scene, wide)), header);

    // The opponent: card backs with the count, and the cards known from its pickups.
    let them = view.seat.opponent();
    let back = if skin.ascii { "#" } else { "▒" };
    let mut spans = vec![
        Span::styled(format!("{} ", scene.seats.name(them)), Style::new().add_modifier(Modifier::BOLD)),
        Span::raw(back.repeat(view.opponent_cards.min(11))),
        Span::raw(format!(" {} cards", view.opponent_cards)),
    ];
    if !view.opponent_known.is_empty() {
        spans.push(Span::raw(if wide { " · known from pickups: " } else { " · has " }));
        spans.extend(spaced(view.opponent_known.iter().map(|card| skin.card_span(card))));
    }
    if wide {
        let block = Block::bordered().border_set(skin.border());
        frame.render_widget(Paragraph::new(Line::from(spans)).block(block), opponent);
    } else {
        frame.render_widget(Paragraph::new(Line::from(spans)), opponent);
    }

    // Stock and pile, and the last moves.
    if wide {
        let [cards, log] = Split::horizontal([Constraint::Length(22), Constraint::Fill(1)]).areas(middle);
        let block = Block::bordered().border_set(skin.border()).title(" Table ");
        let inner = block.inner(cards);
        frame.render_widget(block, cards);
        if inner.height >= 6 && inner.width >= 18 {
            let stock = Rect::new(inner.x + 1, inner.y, 7, 6).intersection(inner);
            let pile = Rect::new(inner.x + 10, inner.y, 7, 6).intersection(inner);
            draw_back(frame.buffer_mut(), skin, Rect::new(stock.x + 1, stock.y, 5, 5));
            put(frame.buffer_mut(), stock.x, stock.y + 5, format!("stock {:>2}", view.stock_size), Style::new());
            match view.pile_top() {
                Some(top) => draw_big_card(frame.buffer_mut(), skin, top, Rect::new(pile.x + 1, pile.y, 5, 5)),
                None => put(frame.buffer_mut(), pile.x + 1, pile.y + 2, "empty", Style::new()),
            }
            put(frame.buffer_mut(), pile.x, pile.y + 5, format!("pile {:>2}", view.discard_pile.len()), Style::new());
            regions.stock = Some(stock);
            regions.pile = Some(pile);
        } else {
            regions = compact_stock_and_pile(frame, scene, inner);
        }
        let block = Block::bordered().border_set(skin.border()).title(" Last moves ");
        let inner_height = usize::from(block.inner(log).height);
        let shown = &scene.log[scene.log.len().saturating_sub(inner_height)..];
        let lines: Vec<Line<'_>> = shown.iter().map(|line| Line::from(line.as_str())).collect();
        frame.render_widget(Paragraph::new(lines).block(block).wrap(Wrap { trim: true }), log);
    } else {
        let [cards, log] = Split::vertical([Constraint::Length(1), Constraint::Fill(1)]).areas(middle);
        regions = compact_stock_and_pile(frame, scene, cards);
        let shown = &scene.log[scene.log.len().saturating_sub(usize::from(log.height))..];
        let lines: Vec<Line<'_>> = shown.iter().map(|line| Line::from(line.as_str())).collect();
        frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), log);
    }

    regions.cards = hand_cards(frame, scene, hand, wide);
    status_lines(frame, scene, status, wide);
    regions
}

/// Stock and pile on one line: `Stock 31 · Pile 7♥ (12)`.
fn compact_stock_and_pile(frame: &mut Frame<'_>, scene: &Scene<'_>, area: Rect) -> Regions {
    let view = &scene.view;
    let stock = format!("Stock {}", view.stock_size);
    let mut spans = vec![Span::raw(stock.clone()), Span::raw(" · Pile ")];
    let pile_x = area.x + u16::try_from(stock.chars().count() + 8).unwrap_or(u16::MAX);
    match view.pile_top() {
        Some(top) => spans.push(scene.skin.card_span(top).add_modifier(Modifier::BOLD)),
        None => spans.push(Span::raw("empty")),
    }
    spans.push(Span::raw(format!(" ({})", view.discard_pile.len())));
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
    let row = |x: u16, width: u16| Some(Rect::new(x, area.y, width, 1).intersection(area));
    Regions { cards: Vec::new(), stock: row(area.x, 8), pile: row(pile_x, 2) }
}

/// The first line: hand, both scores with their boxes, the target, the dealer (folded: the
/// hand, the scores and the target).
fn header_line(scene: &Scene<'_>, wide: bool) -> Line<'static> {
    let view = &scene.view;
    let (me, them) = (view.seat, view.seat.opponent());
    let score = view.score;
    let scores = format!(
        "Hand {} · {} {} · {} {}",
        view.hand_number,
        scene.seats.name(me),
        score.points[me],
        scene.seats.name(them),
        score.points[them]
    );
    let text = if wide {
        format!(
            " {scores} · game to {} · boxes {}–{} · {} dealt",
            view.rules.target,
            score.hands_won[me],
            score.hands_won[them],
            scene.seats.name(view.dealer)
        )
    } else {
        format!("{scores} · to {}", view.rules.target)
    };
    Line::from(Span::styled(text, scene.skin.strong(Color::Cyan)))
}

/// The hand: cards grouped into melds, the deadwood apart with its total, positions and the
/// selection. Returns where each card is, in display order.
fn hand_cards(frame: &mut Frame<'_>, scene: &Scene<'_>, area: Rect, wide: bool) -> Vec<Rect> {
    let skin = scene.skin;
    let view = &scene.view;
    let solver = view.rules.solver();
    let deadwood = solver.min_deadwood(view.hand);
    // With eleven cards, what the best discard leaves too.
    let after = if view.hand.len() == 11 {
        view.rules.best_legal_discards(view.hand, view.taken_card).map(|best| best.deadwood)
    } else {
        None
    };
    let hand = scene.seats.hand_of(view.seat);
    let title = match (after, wide) {
        (Some(after), true) => {
            format!(" {hand} · deadwood {deadwood}, {after} after the best discard · knock limit {} ", view.knock_limit)
        }
        (Some(after), false) => format!("{hand} · deadwood {deadwood} → {after} · limit {}", view.knock_limit),
        (None, true) => format!(" {hand} · deadwood {deadwood} · knock limit {} ", view.knock_limit),
        (None, false) => format!("{hand} · deadwood {deadwood} · limit {}", view.knock_limit),
    };
    let (inner, title_at) = if wide {
        let block = Block::bordered().border_set(skin.border()).title(title.clone());
        let inner = block.inner(area);
        frame.render_widget(block, area);
        (inner, None)
    } else {
        (Rect::new(area.x, area.y + 1, area.width, area.height.saturating_sub(1)), Some(area))
    };
    if let Some(at) = title_at {
        put(frame.buffer_mut(), at.x, at.y, title.trim(), Style::new().add_modifier(Modifier::BOLD));
    }
    let groups: Vec<(&[Card], bool)> = scene
        .layout
        .melds
        .iter()
        .map(|meld| (meld.as_slice(), true))
        .chain((!scene.layout.unmelded.is_empty()).then_some((scene.layout.unmelded.as_slice(), false)))
        .collect();
    let card_width: u16 = if wide { 4 } else { 3 };
    let gap: u16 = 2;
    let mut x = inner.x;
    let mut rects = Vec::new();
    let mut position = 0;
    let buffer = frame.buffer_mut();
    for (cards, melded) in groups {
        let start = x;
        for &card in cards {
            let selected = position == scene.selected;
            let rect = Rect::new(x, inner.y + 1, card_width, if wide { 3 } else { 1 }).intersection(inner);
            if wide {
                draw_small_card(buffer, skin, card, rect, selected);
            } else {
                let style = if selected {
                    skin.card_style(card).add_modifier(Modifier::REVERSED | Modifier::BOLD)
                } else {
                    skin.card_style(card)
                };
                put(buffer, rect.x, rect.y, skin.card_text(card), style);
            }
            let number_row = rect.y + rect.height;
            if number_row < inner.y + inner.height {
                let mark = if selected { "^" } else { "" };
                let label = format!("{}{mark}", position + 1);
                put(buffer, rect.x + u16::from(wide), number_row, label, Style::new());
            }
            rects.push(rect);
            position += 1;
            x += card_width;
        }
        // What the group is, above it.
        let label = if melded {
            "meld".to_owned()
        } else {
            let value: u32 = cards.iter().map(|card| u32::from(card.rank().value())).sum();
            format!("deadwood {value}")
        };
        if x > start {
            let width = usize::from(x - start);
            let text: String = label.chars().take(width).collect();
            let style = if melded { skin.strong(Color::Green) } else { Style::new().add_modifier(Modifier::DIM) };
            put(buffer, start, inner.y, text, style);
        }
        x += gap;
    }
    rects
}

/// The two status lines: what the player may do now and which keys do it, and the last message.
fn status_lines(frame: &mut Frame<'_>, scene: &Scene<'_>, area: Rect, wide: bool) {
    let skin = scene.skin;
    let [first, second] = Split::vertical([Constraint::Length(1), Constraint::Fill(1)]).areas(area);
    let status = match scene.waiting {
        Some(waiting) => Line::from(Span::styled(waiting.to_owned(), Style::new().add_modifier(Modifier::ITALIC))),
        None => Line::from(Span::styled(status_text(scene, wide), skin.strong(Color::Yellow))),
    };
    frame.render_widget(Paragraph::new(status), first);
    let line = match scene.message {
        Some((text, true)) => Line::from(Span::styled(text.clone(), skin.strong(Color::Red))),
        Some((text, false)) => Line::from(text.clone()),
        None => Line::from(Span::styled(
            if wide {
                "←/→ select · i hint · v pile · ? help · q quit"
            } else {
                "←/→ · i hint · v pile · ? · q quit"
            }
            .to_owned(),
            Style::new().add_modifier(Modifier::DIM),
        )),
    };
    frame.render_widget(Paragraph::new(line).wrap(Wrap { trim: true }), second);
}

/// What the player may do now, with its keys.
pub(in crate::play) fn status_text(scene: &Scene<'_>, wide: bool) -> String {
    let view = &scene.view;
    let legal = scene.legal;
    let top = view.pile_top().map(|card| scene.skin.card_text(card)).unwrap_or_default();
    match view.phase {
        _ if legal.is_empty() => String::new(),
        Phase::UpcardOffer => format!("Upcard {top}: t take it · p pass"),
        Phase::Draw if legal.contains(&Action::DrawPile) && !wide => format!("Draw: s stock · d pile {top}"),
        Phase::Draw if legal.contains(&Action::DrawPile) => format!("Draw: s stock · d take {top} from the pile"),
        Phase::Draw => "Draw: s stock (both passed the upcard)".to_owned(),
        Phase::Discard if !wide => {
            let big = if legal.contains(&Action::BigGin) { " · b big gin" } else { "" };
            format!("Discard: Enter · k knock{big}")
        }
        Phase::Discard => {
            let mut text = "Discard: Enter discards the selected card · k knock with it".to_owned();
            if legal.contains(&Action::BigGin) {
                text.push_str(" · b big gin");
            }
            text
        }
        Phase::LayOff | Phase::Over => String::new(),
    }
}

/// A card drawn 4 wide and 3 high; the selected one with a heavy frame, in colour.
fn draw_small_card(buffer: &mut Buffer, skin: Skin, card: Card, rect: Rect, selected: bool) {
    if rect.width < 4 || rect.height < 3 {
        put(buffer, rect.x, rect.y, skin.card_text(card), skin.card_style(card));
        return;
    }
    let lines: [&str; 3] = match (skin.ascii, selected) {
        (true, false) => ["+--+", "|", "+--+"],
        (true, true) => ["#==#", "#", "#==#"],
        (false, false) => ["┌──┐", "│", "└──┘"],
        (false, true) => ["┏━━┓", "┃", "┗━━┛"],
    };
    let frame_style = if selected { skin.strong(Color::Yellow) } else { Style::new() };
    put(buffer, rect.x, rect.y, lines[0], frame_style);
    put(buffer, rect.x, rect.y + 1, lines[1], frame_style);
    let face = if selected { skin.card_style(card).add_modifier(Modifier::BOLD) } else { skin.card_style(card) };
    put(buffer, rect.x + 1, rect.y + 1, skin.card_text(card), face);
    put(buffer, rect.x + 3, rect.y + 1, lines[1], frame_style);
    put(buffer, rect.x, rect.y + 2, lines[2], frame_style);
}

/// The pile's top card, drawn large (5 by 5).
fn draw_big_card(buffer: &mut Buffer, skin: Skin, card: Card, rect: Rect) {
    let text = skin.card_text(card);
    let mut chars = text.chars();
    let rank = chars.next().unwrap_or(' ');
    let suit: String = chars.collect();
    let (top, side, bottom) =
        if skin.ascii { ("+---+", "|", "+---+") } else { ("┌───┐", "│", "└───┘") };
    let style = skin.card_style(card).add_modifier(Modifier::BOLD);
    put(buffer, rect.x, rect.y, top, Style::new());
    for row in 1..4 {
        put(buffer, rect.x, rect.y + row, side, Style::new());
        put(buffer, rect.x + 4, rect.y + row, side, Style::new());
    }
    put(buffer, rect.x + 1, rect.y + 1, rank.to_string(), style);
    put(buffer, rect.x + 2, rect.y + 2, &suit, style);
    put(buffer, rect.x + 3, rect.y + 3, rank.to_string(), style);
    put(buffer, rect.x, rect.y + 4, bottom, Style::new());
}

/// The stock: a card back, 5 by 5.
fn draw_back(buffer: &mut Buffer, skin: Skin, rect: Rect) {
    let (top, side, bottom, fill) = if skin.ascii {
        ("+---+", "|", "+---+", "###")
    } else {
        ("┌───┐", "│", "└───┘", "▒▒▒")
    };
    put(buffer, rect.x, rect.y, top, Style::new());
    for row in 1..4 {
        put(buffer, rect.x, rect.y + row, format!("{side}{fill}{side}"), Style::new());
    }
    put(buffer, rect.x, rect.y + 4, bottom, Style::new());
}

/// Writes `text` at (`x`, `y`), cut at the buffer's edge; nothing when the place is outside it
/// (a terminal smaller than the table).
fn put(buffer: &mut Buffer, x: u16, y: u16, text: impl AsRef<str>, style: Style) {
    if buffer.area.contains((x, y).into()) {
        buffer.set_string(x, y, text, style);
    }
}

/// Spans with a space between them.
fn spaced(spans: impl Iterator<Item = Span<'static>>) -> Vec<Span<'static>> {
    let mut out = Vec::new();
    for span in spans {
        if !out.is_empty() {
            out.push(Span::raw(" "));
        }
        out.push(span);
    }
    out
}

/// Cards as spans in a line.
fn card_spans(skin: Skin, cards: impl IntoIterator<Item = Card>) -> Vec<Span<'static>> {
    spaced(cards.into_iter().map(|card| skin.card_span(card)))
}

/// Melds as spans, each in brackets: `[A♠ 2♠ 3♠]  [7♥ 7♦ 7♣]`, or `none`.
fn meld_spans(skin: Skin, melds: &[Meld]) -> Vec<Span<'static>> {
    if melds.is_empty() {
        return vec![Span::raw("none")];
    }
    let mut spans = Vec::new();
    for (i, meld) in melds.iter().enumerate() {
        if i > 0 {
            spans.push(Span::raw("  "));
        }
        spans.push(Span::raw("["));
        spans.extend(card_spans(skin, meld.cards_in_order()));
        spans.push(Span::raw("]"));
    }
    spans
}

/// A centred window of at most `width` by `height`, within `area`.
fn centred(area: Rect, width: u16, height: u16) -> Rect {
    let width = width.min(area.width);
    let height = height.min(area.height);
    Rect::new(area.x + (area.width - width) / 2, area.y + (area.height - height) / 2, width, height)
}

/// A window with a title over the table, its text wrapped to its width.
fn popup(frame: &mut Frame<'_>, skin: Skin, title: &str, text: Text<'static>, area: Rect) {
    let width = area.width.saturating_sub(4).min(76);
    // The height the text takes when wrapped, plus the frame.
    let inner_width = usize::from(width.saturating_sub(2)).max(1);
    let rows: usize = text.lines.iter().map(|line| line.width().max(1).div_ceil(inner_width)).sum();
    let height = u16::try_from(rows + 2).unwrap_or(u16::MAX);
    let rect = centred(area, width, height);
    frame.render_widget(Clear, rect);
    let block = Block::bordered().border_set(skin.border()).title(format!(" {title} "));
    frame.render_widget(Paragraph::new(text).block(block).wrap(Wrap { trim: false }), rect);
}

/// The hint's advice and its weightiest reasons, at most five lines so the window fits 80x24:
/// the advice and three reasons and a count of the rest, or all of them when a fifth line would
/// say no less than the count.
fn hint_text(lines: &[String]) -> Text<'static> {
    const MOST: usize = 5;
    let shown = if lines.len() <= MOST { lines.len() } else { MOST - 1 };
    let mut text: Vec<Line<'static>> = lines[..shown].iter().map(|line| Line::from(line.clone())).collect();
    if shown < lines.len() {
        text.push(Line::from(format!("  (and {} more)", lines.len() - shown)));
    }
    Text::from(text)
}

/// The keys, for `?`.
fn help_text() -> Text<'static> {
    let lines = [
        "←/→ or h/l     select a card (1-9, 0 for the 10th, - for the 11th)",
        "Enter, space   discard the selected card",
        "s / d          draw from the stock / take the discard pile's top",
        "t / p          take / pass the first upcard",
        "k              knock (or go gin) discarding the selected card",
        "b              big gin, where the rules play it",
        "i              a hint: what the opponent's level would do, and why",
        "v              the whole discard pile",
        "q              quit; the game is saved after every move",
        "Mouse          click a card to select it, again to discard it;",
        "               click the stock or the pile to draw",
        "",
        "Any key closes this window.",
    ];
    Text::from(lines.iter().map(|line| Line::from(*line)).collect::<Vec<_>>())
}

/// The whole discard pile, bottom first, for `v`.
fn pile_popup(frame: &mut Frame<'_>, scene: &Scene<'_>, area: Rect) {
    let pile = scene.view.discard_pile;
    let mut lines = Vec::new();
    if pile.is_empty() {
        lines.push(Line::from("The discard pile is empty."));
    } else {
        lines.push(Line::from(format!("{}, bottom first, the top last:", plural(pile.len() as u64, "card"))));
        lines.push(Line::from(card_spans(scene.skin, pile.iter().copied())));
    }
    lines.push(Line::from(""));
    lines.push(Line::from("Any key closes this window."));
    popup(frame, scene.skin, "Discard pile", Text::from(lines), area);
}

/// A knock's confirmation: the melds it shows, its deadwood, and what the opponent may lay off.
fn knock_popup(frame: &mut Frame<'_>, scene: &Scene<'_>, action: Action, area: Rect) {
    let skin = scene.skin;
    let view = &scene.view;
    let mut lines = Vec::new();
    let Some(shown) = view.engine_showing(action) else { return };
    let (verb, title) = match action {
        Action::BigGin => ("Go big gin, all 11 cards melded?".to_owned(), "Big gin"),
        Action::Knock { discard } if shown.deadwood() == 0 => {
            (format!("Go gin, discarding {}?", skin.card_text(discard)), "Gin")
        }
        Action::Knock { discard } => (format!("Knock, discarding {}?", skin.card_text(discard)), "Knock"),
        _ => return,
    };
    lines.push(Line::from(Span::styled(verb, Style::new().add_modifier(Modifier::BOLD))));
    let mut melds = vec![Span::raw("Your melds: ")];
    melds.extend(meld_spans(skin, shown.melds()));
    lines.push(Line::from(melds));
    let mut deadwood = vec![Span::raw(format!("Deadwood {}", shown.deadwood()))];
    if !shown.unmelded().is_empty() {
        deadwood.push(Span::raw(": "));
        deadwood.extend(card_spans(skin, shown.unmelded()));
    }
    lines.push(Line::from(deadwood));
    let gin = shown.deadwood() == 0;
    let layoffs = if gin {
        Line::from("Nothing may be laid off on gin.")
    } else if !view.rules.layoffs {
        Line::from("These rules allow no layoffs.")
    } else {
        // Cards the opponent may hold (none of yours, none in the pile) that fit your melds.
        let mut unseen = CardSet::FULL - view.hand;
        for &card in view.discard_pile {
            unseen.remove(card);
        }
        // Each card that fits a meld by itself (those that extend a run further need it first).
        let solver = view.rules.solver();
        let fits: Vec<Card> =
            unseen.iter().filter(|&card| solver.is_valid_layoff(shown.melds(), CardSet::from_card(card))).collect();
        let them = scene.seats.name(view.seat.opponent());
        if fits.is_empty() {
            Line::from(format!("{them} can lay off nothing on your melds."))
        } else {
            let mut spans = vec![Span::raw(format!("{them} may lay off: "))];
            spans.extend(card_spans(skin, fits));
            spans.push(Span::raw(", and cards that run on from them"));
            Line::from(spans)
        }
    };
    lines.push(layoffs);
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled("y or Enter: yes · n or Esc: no", skin.strong(Color::Yellow))));
    popup(frame, skin, title, Text::from(lines), area);
}

/// The end of a hand: both hands spread with their melds, the layoffs marked, the outcome and
/// the points with their breakdown.
fn hand_end(frame: &mut Frame<'_>, scene: &Scene<'_>, end: &HandEnd) {
    let skin = scene.skin;
    let area = frame.area();
    frame.render_widget(Clear, area);
    let mut lines = Vec::new();
    let order = match end.knocker {
        Some(knocker) => [knocker, knocker.opponent()],
        None => Player::ALL,
    };
    for player in order {
        let shown = &end.shown[player];
        let mut role = scene.seats.name(player).to_owned();
        if end.knocker == Some(player) {
            role.push_str(match end.score.outcome {
                HandOutcome::Gin => " (gin)",
                HandOutcome::BigGin => " (big gin)",
                _ => " (knocked)",
            });
        }
        lines.push(Line::from(Span::styled(role, Style::new().add_modifier(Modifier::BOLD))));
        let mut melds = vec![Span::raw("  melds    ")];
        melds.extend(meld_spans(skin, shown.melds()));
        lines.push(Line::from(melds));
        if !shown.laid_off().is_empty() {
            let mut spans = vec![Span::raw("  laid off ")];
            spans.extend(
                card_spans(skin, shown.laid_off()).into_iter().map(|span| span.add_modifier(Modifier::UNDERLINED)),
            );
            spans.push(Span::raw("  (on the knocker's melds)"));
            lines.push(Line::from(spans));
        }
        let mut deadwood = vec![Span::raw(format!("  deadwood {:<3}", shown.deadwood()))];
        deadwood.extend(card_spans(skin, shown.unmelded()));
        lines.push(Line::from(deadwood));
        lines.push(Line::from(""));
    }
    lines.push(Line::from(Span::styled(screen::hand_result(end, scene.seats), skin.strong(Color::Yellow))));
    lines.push(Line::from(format!(
        "Score: {} {} · {} {} (game to {}).",
        scene.seats.name(Player::One),
        end.points[Player::One],
        scene.seats.name(Player::Two),
        end.points[Player::Two],
        scene.view.rules.target
    )));
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled("Enter or space: next · q: quit (saved)", skin.strong(Color::Cyan))));
    let block = Block::bordered().border_set(skin.border()).title(format!(" Hand {} is over ", end.number));
    frame.render_widget(Paragraph::new(lines).block(block).wrap(Wrap { trim: false }), area);
}

/// The end of the game: the score sheet, and another game offered.
fn game_end(frame: &mut Frame<'_>, scene: &Scene<'_>, result: &GameResult) {
    let skin = scene.skin;
    let area = frame.area();
    frame.render_widget(Clear, area);
    let sheet = screen::game_end(result, scene.view.rules, scene.seats, skin.text_look());
    let mut lines: Vec<Line<'_>> = Vec::new();
    for (i, line) in sheet.lines().enumerate() {
        let style = if i == 0 { skin.strong(Color::Yellow) } else { Style::new() };
        lines.push(Line::from(Span::styled(line.to_owned(), style)));
    }
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled("n: another game · q: quit", skin.strong(Color::Cyan))));
    let block = Block::bordered().border_set(skin.border()).title(" Score sheet ");
    frame.render_widget(Paragraph::new(lines).block(block).wrap(Wrap { trim: false }), area);
}

/// A hot seat between turns.
fn pass_screen(frame: &mut Frame<'_>, scene: &Scene<'_>, player: Player) {
    let area = frame.area();
    frame.render_widget(Clear, area);
    let name = scene.seats.name(player);
    let lines = vec![
        Line::from(Span::styled(format!("Pass to {name}"), scene.skin.strong(Color::Yellow))),
        Line::from(""),
        Line::from(format!("Press Enter when only {name} can see the screen.")),
        Line::from("q quits (the game is saved)."),
    ];
    let rect = centred(area, 60, 6);
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), rect);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::screen::fixtures::{self, game_after};
    use gin_engine::Game;
    use gin_rules::{ByPlayer, GameScore, Ruleset};
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    /// The sizes every screen is drawn at: the classic terminal, a wide one, a narrow one.
    const SIZES: [(u16, u16); 3] = [(80, 24), (120, 36), (48, 18)];

    const SKIN: Skin = Skin { look: Look::SYMBOLS, ascii: false };

    /// The screen's text, one line per row, trailing blanks cut.
    fn text(buffer: &Buffer) -> String {
        let area = buffer.area;
        let mut out = String::new();
        for y in 0..area.height {
            let mut line = String::new();
            for x in 0..area.width {
                line.push_str(buffer[(x, y)].symbol());
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }

    /// Draws `scene` at `size`: the screen's text and the regions.
    fn render(scene: &Scene<'_>, (width, height): (u16, u16)) -> (String, Regions, Buffer) {
        let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
        let mut regions = Regions::default();
        terminal.draw(|frame| regions = draw(frame, scene)).unwrap();
        let buffer = terminal.backend().buffer().clone();
        (text(&buffer), regions, buffer)
    }

    /// The scene at every size, one after the other, for one snapshot.
    fn at_every_size(scene: &Scene<'_>) -> String {
        SIZES
            .iter()
            .map(|&size| format!("── {}×{} ──\n{}", size.0, size.1, render(scene, size).0))
            .collect::<Vec<_>>()
            .join("")
    }

    /// A scene of `game` for the player to act, with `overlay`.
    fn with_scene<T>(game: &Game, overlay: Option<&Overlay>, skin: Skin, f: impl FnOnce(&Scene<'_>) -> T) -> T {
        let player = game.to_act().unwrap();
        let view = game.view(player);
        let legal = game.legal_actions();
        let layout = Layout::of(view.hand, game.rules().solver());
        let seats = Seats::versus_ai(player);
        let card = |text: &str| skin.card_text(text.parse().unwrap());
        let log = vec![
            "The AI passes the upcard.".to_owned(),
            format!("You draw from the stock and discard {}.", card("9C")),
            format!("The AI takes {} from the discard pile and discards {}.", card("9C"), card("KD")),
        ];
        let scene = Scene {
            view,
            legal: &legal,
            seats: &seats,
            skin,
            layout: &layout,
            selected: 2,
            log: &log,
            message: None,
            waiting: None,
            overlay,
        };
        f(&scene)
    }

    #[test]
    fn the_table_on_an_upcard_offer() {
        let game = game_after(1, 0);
        insta::assert_snapshot!(with_scene(&game, None, SKIN, at_every_size));
    }

    #[test]
    fn the_table_after_a_draw() {
        let game = game_after(3, 3);
        insta::assert_snapshot!(with_scene(&game, None, SKIN, at_every_size));
    }

    #[test]
    fn the_table_in_ascii() {
        let game = game_after(3, 3);
        let ascii = Skin { look: Look::PLAIN, ascii: true };
        let screen = with_scene(&game, None, ascii, |scene| render(scene, (80, 24)).0);
        assert!(screen.is_ascii(), "{screen}");
        // Nothing fell back to `?` for want of an ASCII form (the one `?` is the help key's).
        assert_eq!(screen.matches('?').count(), 1, "{screen}");
        insta::assert_snapshot!(screen);
    }

    #[test]
    fn red_suits_are_red_only_in_colour() {
        let game = game_after(3, 3);
        let red_cells = |skin: Skin| {
            with_scene(&game, None, skin, |scene| {
                let (_, _, buffer) = render(scene, (80, 24));
                buffer.content().iter().filter(|cell| cell.fg == Color::Red).count()
            })
        };
        assert!(red_cells(Skin { look: Look { color: true, ..SKIN.look }, ..SKIN }) > 0);
        assert_eq!(red_cells(SKIN), 0);
    }

    #[test]
    fn a_click_lands_on_the_card_drawn_there() {
        let game = game_after(3, 3);
        for size in SIZES {
            with_scene(&game, None, SKIN, |scene| {
                let (_, regions, buffer) = render(scene, size);
                let order = scene.layout.order();
                assert_eq!(regions.cards.len(), order.len(), "{size:?}");
                for (position, (rect, card)) in regions.cards.iter().zip(&order).enumerate() {
                    let cells: String =
                        (rect.x..rect.x + rect.width).map(|x| buffer[(x, rect.y + rect.height / 2)].symbol()).collect();
                    assert!(cells.contains(&SKIN.card_text(*card)), "{size:?}: {cells} is not {card}");
                    assert_eq!(regions.card_at(rect.x, rect.y), Some(position));
                }
                let (stock, pile) = (regions.stock.unwrap(), regions.pile.unwrap());
                assert!(!stock.intersects(pile) && stock.area() > 0 && pile.area() > 0, "{size:?}");
            });
        }
    }

    #[test]
    fn the_windows_over_the_table() {
        let game = game_after(3, 3);
        let knock = game.legal_actions().iter().copied().find(|a| matches!(a, Action::Discard { .. })).unwrap();
        let Action::Discard { card } = knock else { unreachable!() };
        let hint = Overlay::Hint(vec![
            "Hint: mc would discard K♦.".to_owned(),
            "  - discard K♦: leaves 31 deadwood, about 24.5 after the next draw; the opponent can meld it with \
             chance 12%"
                .to_owned(),
        ]);
        for (name, overlay) in [
            ("help", Overlay::Help),
            ("pile", Overlay::Pile),
            ("hint", hint),
            ("knock", Overlay::Knock(Action::knock(card))),
            ("pass", Overlay::PassTo(Player::Two)),
        ] {
            let screens = with_scene(&game, Some(&overlay), SKIN, at_every_size);
            insta::assert_snapshot!(name, screens);
        }
    }

    #[test]
    fn a_hint_shows_five_lines_at_most_and_counts_the_rest() {
        let lines = |n: usize| (0..n).map(|i| format!("line {i}")).collect::<Vec<_>>();
        let shown = |n: usize| hint_text(&lines(n)).lines.iter().map(|line| line.to_string()).collect::<Vec<_>>();
        assert_eq!(shown(1), ["line 0"]);
        // A fifth line takes the row "(and 1 more)" would: it is shown.
        assert_eq!(shown(5), lines(5));
        assert_eq!(shown(6), ["line 0", "line 1", "line 2", "line 3", "  (and 2 more)"]);
        assert_eq!(shown(9).last().map(String::as_str), Some("  (and 5 more)"));
    }

    #[test]
    fn a_knock_shows_what_may_be_laid_off() {
        // docs/rules.md V10: player one takes the upcard 9H and may knock discarding 3H.
        let setup = fixtures::v10_setup();
        let (mut game, _) = Game::from_setup(&Ruleset::standard(), 1, &setup).unwrap();
        game.play(Player::One, Action::TakeUpcard).unwrap();
        let overlay = Overlay::Knock(Action::knock("3H".parse().unwrap()));
        let screen = with_scene(&game, Some(&overlay), SKIN, |scene| render(scene, (80, 24)).0);
        assert!(screen.contains("Knock, discarding 3♥?"), "{screen}");
        // The fourth seven and the runs' ends the opponent may hold (4S among them), and not the
        // cards of the hand.
        assert!(screen.contains("Knock, discarding 3♥?"), "{screen}");
        assert!(screen.contains("Deadwood 9: 9♥"), "{screen}");
        assert!(screen.contains("The AI may lay off: 4♠ 7♠ T♣, and cards that run on"), "{screen}");
    }

    #[test]
    fn the_end_of_a_hand_and_of_the_game() {
        let rules = Ruleset::standard();
        let ended = fixtures::v10_undercut(&rules);
        let end = HandEnd::of(&ended, 4, ByPlayer::default(), rules.solver()).unwrap();
        let game = game_after(3, 3);
        let screens = with_scene(&game, Some(&Overlay::HandEnd(end)), SKIN, at_every_size);
        assert!(
            screens.contains("UNDERCUT: The AI scores 28 points (25 undercut bonus + deadwood 3 − 0)"),
            "{screens}"
        );
        insta::assert_snapshot!("hand end", screens);
        let score = GameScore { points: ByPlayer::new(118, 0), hands_won: ByPlayer::new(5, 0), hands: 6 };
        let result = score.result(&rules).unwrap();
        let screens = with_scene(&game, Some(&Overlay::GameEnd(result)), SKIN, at_every_size);
        insta::assert_snapshot!("game end", screens);
    }

    #[test]
    fn nothing_of_either_hand_shows_between_hot_seat_turns() {
        let game = game_after(3, 3);
        let player = game.to_act().unwrap();
        let hands = game.deal().cards(player) | game.deal().cards(player.opponent());
        for size in SIZES {
            let screen =
                with_scene(&game, Some(&Overlay::PassTo(player.opponent())), SKIN, |scene| render(scene, size).0);
            for card in hands {
                assert!(!screen.contains(&SKIN.card_text(card)), "{card} shows at {size:?}:\n{screen}");
            }
        }
    }

    #[test]
    fn any_size_draws_without_a_panic() {
        let game = game_after(3, 3);
        let overlays = [
            None,
            Some(Overlay::Help),
            Some(Overlay::Pile),
            Some(Overlay::Hint(vec!["Hint: a long line that has to wrap ".repeat(5)])),
            Some(Overlay::PassTo(Player::One)),
        ];
        for overlay in &overlays {
            for width in (0..=90).step_by(7) {
                for height in (0..=26).step_by(2) {
                    with_scene(&game, overlay.as_ref(), SKIN, |scene| render(scene, (width, height)));
                }
            }
        }
        // Too small for the table: it says so, and how large to make it.
        let tiny = with_scene(&game, None, SKIN, |scene| render(scene, (30, 10)).0);
        assert!(tiny.replace('\n', " ").contains("Make the terminal at least 36×12"), "{tiny}");
    }
}
