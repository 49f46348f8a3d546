//! [`Picks`]: how each built-in agent decides, in two steps, inside the crate.

/// How each built-in agent decides, in two steps: the action, then the cards it lays down with
/// it. Inside the crate, a search or a test asks for the action alone ([`Picks::pick`]).
pub(crate) trait Picks {
    /// The action played from `view`, one of `legal`.
    fn pick(&mut self, view: &gin_engine::PlayerView<'_>, legal: &[gin_engine::Action]) -> gin_engine::Action;

    /// The cards laid down with `action`, a knock, big gin or a defense just picked (`None`: the
    /// referee's choice).
    fn shown(&mut self, view: &gin_engine::PlayerView<'_>, action: gin_engine::Action) -> Option<gin_rules::Showing> {
        let _ = (view, action);
        None
    }
}

/// [`gin_engine::Agent::choose`] for a built-in agent: its action, and the cards it shows with one
/// that lays cards down.
pub(crate) fn decide<A: Picks + ?Sized>(
    agent: &mut A,
    view: &gin_engine::PlayerView<'_>,
    legal: &[gin_engine::Action],
) -> gin_engine::Decision {
    let action = agent.pick(view, legal);
    let showing = if action.shows_cards() { agent.shown(view, action) } else { None };
    gin_engine::Decision::showing(action, showing)
}
