//! The page's watch link and its hand-over control in headless Chromium: a spectator's page
//! shows the game with no hand and no moves while a person plays; the creator's page shows why
//! a bot's seat is not handed over, then hands its own seat to a bot, which finishes the game
//! while the page watches on.

use super::{Browser, LAYOUT_PROBLEMS, SCREENS, Served, browser};
use crate::common::TempDir;

#[test]
fn a_watch_link_shows_the_game_and_a_seat_handed_to_a_bot_finishes_it() {
    let Some(browser) = browser() else { return };
    let served = Served::start();
    let dir = TempDir::new("serve-watch");
    // Three hands: a hand may end at its deal (a dealt four of a month) or after a move or two,
    // and the game must still be going when the seat is handed over.
    let url = format!("{}?ruleset=koikoi&players=human,greedy&hands=3", served.url);
    let mut player = Browser::open(&browser, &dir.join("player"), &url);
    assert!(
        player.wait_until(
            "document.getElementById('watch-link') && document.querySelector('[data-move]')"
        ),
        "the player's page shows its moves and the watch link"
    );
    let watch = player.eval("document.getElementById('watch-link').href");
    let watch = watch.as_str().expect("a watch link").to_string();
    assert!(watch.contains("token="), "{watch}");
    let mut spectator = Browser::open(&browser, &dir.join("spectator"), &watch);
    assert!(
        spectator.wait_until(
            "document.body.dataset.watching === 'yes' && Number(document.body.dataset.states) > 0"
        ),
        "the watch link opens as a spectator"
    );
    let seen = |page: &mut Browser| {
        page.eval(
            "({ hand: document.querySelectorAll('#hand .card').length, \
                moves: document.querySelectorAll('[data-move]').length, \
                table: document.querySelectorAll('#center .card:not(.back)').length, \
                watching: !document.getElementById('watching').hidden, \
                handOver: !document.getElementById('hand-over').hidden, \
                status: document.getElementById('status').textContent, \
                prompt: document.getElementById('prompt').textContent })",
        )
    };
    let first = seen(&mut spectator);
    // No position while the game is in progress: it would hold the cards no seat may see.
    assert_eq!(
        spectator.eval("document.getElementById('copy-position').disabled"),
        true
    );
    assert_eq!(first["hand"], 0, "no hand: {first}");
    assert_eq!(first["moves"], 0, "no moves: {first}");
    assert_eq!(first["watching"], true, "{first}");
    assert_eq!(
        first["handOver"], false,
        "a spectator hands nothing over: {first}"
    );
    assert!(
        first["table"].as_u64() > Some(0),
        "the field's cards: {first}"
    );
    let status = first["status"].as_str().unwrap_or_default();
    assert!(
        status.contains("watching") && !status.contains("NaN"),
        "{first}"
    );
    // The spectator's table is laid out on a phone and a laptop as a player's is.
    let shots = std::env::temp_dir().join("yaku-serve-layout");
    let _ = std::fs::create_dir_all(&shots);
    for (width, height, mobile) in SCREENS {
        spectator.screen(width, height, mobile);
        spectator.screenshot(&shots.join(format!("watching-{width}x{height}.png")));
        let problems = spectator.eval(LAYOUT_PROBLEMS);
        assert_eq!(
            problems,
            serde_json::json!([]),
            "watching, {width}x{height}"
        );
    }
    // The player moves; the spectator is told, and still sees no hand.
    let before = spectator.states();
    player.eval("document.querySelector('[data-move=\"0\"]').click()");
    assert!(
        spectator.wait_until(&format!("Number(document.body.dataset.states) > {before}")),
        "the spectator sees the move"
    );
    let after = seen(&mut spectator);
    assert_eq!(
        (after["hand"].clone(), after["moves"].clone()),
        (0.into(), 0.into()),
        "{after}"
    );
    // The creator's page may ask for the other seat too, and shows why the server refuses.
    player.eval(
        "document.getElementById('hand-over-seat').value = '1'; \
         document.getElementById('hand-over-form').requestSubmit()",
    );
    assert!(
        player.wait_until(
            "document.getElementById('hand-over-said').textContent === \
             'Not handed over: seat 2 is not held by a person'"
        ),
        "the reason is shown: {}",
        player.eval("document.getElementById('hand-over-said').textContent")
    );
    // The player hands its seat to a bot: the game finishes, and the page watches on.
    assert!(player.wait_until("document.querySelector('[data-move]')"));
    player.eval(
        "document.getElementById('hand-over-seat').value = '0'; \
         document.getElementById('hand-over-bot').value = 'greedy'; \
         document.getElementById('hand-over-form').requestSubmit()",
    );
    // (The seat's own connection may be told the game is over before the page watches on.)
    assert!(
        player.wait_until(
            "document.body.dataset.watching === 'yes' && \
             document.getElementById('status').textContent === 'game over' && \
             document.getElementById('hand-over-said').textContent.includes('played by greedy')"
        ),
        "the bot finishes the game, and the page watches on: {}",
        player.eval("document.body.innerText")
    );
    let end = seen(&mut player);
    assert_eq!(end["watching"], true, "the player's page watches on: {end}");
    assert_eq!(end["hand"], 0, "{end}");
    let text = spectator.wait_for_game_over();
    assert!(text.contains("Game over"), "{text}");
    // The game is over: the spectator copies its position, which `yaku position` reads.
    spectator.eval("document.getElementById('copy-position').click()");
    assert!(
        spectator.wait_until("document.body.dataset.position !== undefined"),
        "the position is fetched: {}",
        spectator.eval("document.getElementById('position-said').textContent")
    );
    let position = spectator.eval("document.getElementById('position-text').value");
    let position = position.as_str().unwrap_or_default();
    assert!(
        position.starts_with("# A finished game of Koi-Koi (standard), after "),
        "{position}"
    );
    let file = dir.write("copied.toml", position);
    crate::common::Yaku::new(["position", file.to_str().unwrap()]).expect(0);
    let said = spectator.eval("document.getElementById('position-said').textContent");
    assert!(
        said.as_str()
            .unwrap_or_default()
            .contains("position after move "),
        "{said}"
    );
}

#[test]
fn a_link_whose_token_holds_no_seat_says_so_and_leads_back() {
    let Some(browser) = browser() else { return };
    let served = Served::start();
    let dir = TempDir::new("serve-bad-link");
    let (_, body) = served.request(
        "POST",
        "/api/rooms",
        r#"{"ruleset":"koikoi","players":["human","greedy"]}"#,
    );
    let room: serde_json::Value = serde_json::from_str(&body).unwrap();
    let code = room["room"].as_str().unwrap();
    for (name, link) in [
        (
            "wrong-token",
            format!("{}#room={code}&token=0123", served.url),
        ),
        ("no-room", format!("{}#room=0123&token=0123", served.url)),
    ] {
        let mut page = Browser::open(&browser, &dir.join(name), &link);
        assert!(
            page.wait_until("!document.getElementById('bad-link').hidden"),
            "{name}: the page says the link opens no seat"
        );
        let said = page.eval("document.getElementById('bad-link').innerText");
        let said = said.as_str().unwrap_or_default();
        assert!(said.contains("does not open a seat"), "{name}: {said}");
        let back = page.eval("document.querySelector('#bad-link a').getAttribute('href')");
        assert_eq!(back, "/", "{name}");
        assert_eq!(
            page.eval("location.hash"),
            "",
            "{name}: the token leaves the address"
        );
    }
}

#[test]
fn the_creators_page_closes_the_room() {
    let Some(browser) = browser() else { return };
    let served = Served::start();
    let dir = TempDir::new("serve-close");
    let url = format!("{}?ruleset=koikoi&players=human,human&hands=3", served.url);
    let mut page = Browser::open(&browser, &dir.join("creator"), &url);
    assert!(
        page.wait_until("!document.getElementById('close-box').hidden"),
        "the creator's page offers to close the room"
    );
    page.eval("window.confirm = () => true; document.getElementById('close-room').click()");
    assert!(
        page.wait_until("!document.getElementById('bad-link').hidden"),
        "the page says the room is closed"
    );
    let said = page.eval("document.getElementById('bad-link').innerText");
    assert!(
        said.as_str().unwrap_or_default().contains("closed"),
        "{said}"
    );
}

/// The lobby offers Koi-Koi first (its list is alphabetical), then the game this browser chose
/// last; the page has an icon.
#[test]
fn the_lobby_offers_koikoi_first_then_the_last_game_chosen() {
    let Some(browser) = browser() else { return };
    let served = Served::start();
    let dir = TempDir::new("serve-lobby");
    let mut page = Browser::open(&browser, &dir.join("profile"), &served.url);
    assert!(page.wait_until("document.getElementById('ruleset').options.length > 1"));
    assert_eq!(
        page.eval("document.getElementById('ruleset').value"),
        "koikoi"
    );
    assert_eq!(
        page.eval("!!document.querySelector('link[rel=icon]')"),
        true,
        "an icon"
    );
    page.eval(
        "(() => { const s = document.getElementById('ruleset'); s.value = 'gostop'; \
         s.dispatchEvent(new Event('change')); location.reload(); return 1; })()",
    );
    assert!(page.wait_until(
        "document.getElementById('ruleset').options.length > 1 && \
         document.getElementById('ruleset').value === 'gostop'"
    ));
}
