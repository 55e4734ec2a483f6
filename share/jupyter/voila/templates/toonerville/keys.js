/* Card-game keys for every seat a page shows: 07's game (.tr-play) and the seat view of
   the table pages (.tr-seat-view: 09's shared tables, pass-and-play, 10's tables).

   A key presses a button the learner could press, found by its stable class, and nothing
   else: every move still goes through the kernel and the engine, which answer as they
   answer a click (a refusal says why). A button that cannot be pressed now (disabled, or
   not shown) does nothing, and the message box says so, with the page's prompt.

     D draw · T take the discard · B buy · P pass · S suggest · L lay down · X discard ·
     H hint · U take back · 1…9, 0 select card 1…10 of the hand (the same digit again:
     card 11…20) · ← → Home End move across the hand · Enter on an offer passes.

   The hand's cards carry small badges with their numbers (CSS counters, drawn here).
   No key acts while the learner types in a text box or chooses in a list, or with Ctrl,
   Alt or Meta held. The focus goes where the next action is when the page loads and when
   the seat's next step changes (the prompt's class `tr-next-<step>`, set by the kernel:
   toonerville/widgets/keys.py), unless the learner is busy elsewhere on the page. The
   message box and the prompt are polite live regions, so a screen reader says the state
   after each move. The legend (.tr-keys-box, written by the kernel in the page's
   language) carries the two sentences this script says itself.

   Included inline by the page template (index.html.j2) and, on the static site, by
   tools/build_site.py, as rule-links.js is. */
(function () {
  'use strict';
  if (window.toonervilleKeys) { return; }
  window.toonervilleKeys = true;

  var LETTERS = {d: 'tr-draw', t: 'tr-take', b: 'tr-buy', p: 'tr-pass', s: 'tr-suggest',
                 l: 'tr-lay-down', x: 'tr-discard', h: 'tr-hint', u: 'tr-undo'};
  var SHORTCUTS = {'tr-draw': 'D', 'tr-take': 'T', 'tr-buy': 'B', 'tr-pass': 'P',
                   'tr-suggest': 'S', 'tr-lay-down': 'L', 'tr-discard': 'X', 'tr-hint': 'H',
                   'tr-undo': 'U'};
  // the controls the focus may be taken from when the seat's next step changes
  var MOVE_CONTROLS = '.tr-card, .tr-draw, .tr-take, .tr-buy, .tr-pass, .tr-discard, ' +
                      '.tr-lay-down, .tr-lay-off, .tr-swap, .tr-suggest, .tr-hint, .tr-undo';
  // the controls of each step: the focus already on one of them stays there (the kernel
  // may have put it there, e.g. on Discard once a card is chosen, before this script saw
  // the step change: taking it away then made Enter press a card instead)
  var STEP_CONTROLS = {
    draw: '.tr-draw, .tr-take',
    play: '.tr-card, .tr-discard, .tr-lay-down, .tr-lay-off, .tr-swap, .tr-suggest, ' +
          '.tr-hint, .tr-undo'
  };
  var STEPS = ['buy', 'draw', 'play', 'wait', 'over'];
  var CSS =
    'body.tr-keys-on .tr-hand .tv-hand-picker-row { counter-reset: tr-card; }\n' +
    'body.tr-keys-on .tr-hand .tv-card-picker-card { counter-increment: tr-card; ' +
    'position: relative; }\n' +
    'body.tr-keys-on .tr-hand .tv-card-picker-card::before { content: counter(tr-card); ' +
    'position: absolute; top: 0; inset-inline-start: 0; z-index: 1; pointer-events: none; ' +
    'font: bold max(11px, .7em)/1.35 sans-serif; padding: 0 .35em; border-radius: 4px; ' +
    'background: #263238; color: #fff; }\n';

  function visible(el) {
    return !!el && el.getClientRects().length > 0;
  }
  function typing(el) {
    if (!el || el === document.body) { return false; }
    var tag = el.tagName;
    return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || el.isContentEditable;
  }
  // the seats of the page: 07's app, or a seat view (the innermost, when one holds another)
  function seats() {
    var all = Array.prototype.slice.call(document.querySelectorAll('.tr-play, .tr-seat-view'));
    return all.filter(function (root) {
      return visible(root) && !Array.prototype.some.call(
        root.querySelectorAll('.tr-seat-view'), visible);
    });
  }
  function step(root) {
    var prompt = root.querySelector('.tr-prompt');
    if (!prompt) { return ''; }
    for (var i = 0; i < STEPS.length; i++) {
      if (prompt.classList.contains('tr-next-' + STEPS[i])) { return STEPS[i]; }
    }
    return '';
  }
  // the seat a key is for: the one holding the focus, else the first that decides now
  function activeSeat() {
    var here = document.activeElement && document.activeElement.closest &&
      document.activeElement.closest('.tr-seat-view, .tr-play');
    var list = seats();
    if (here && list.indexOf(here) >= 0) { return here; }
    for (var i = 0; i < list.length; i++) {
      if (['buy', 'draw', 'play'].indexOf(step(list[i])) >= 0) { return list[i]; }
    }
    return list[0] || null;
  }
  function cards(root) {
    return Array.prototype.filter.call(root.querySelectorAll('.tr-hand .tr-card'), visible);
  }
  function selected(card) { return card.classList.contains('mod-active'); }
  function first(root, css) {
    var found = root.querySelectorAll('.' + css);
    for (var i = 0; i < found.length; i++) { if (visible(found[i])) { return found[i]; } }
    return found[0] || null;
  }

  // -- saying why not, in the page's message box ---------------------------------------
  function texts(root) {
    return root.querySelector('.tr-keys-box') || document.querySelector('.tr-keys-box');
  }
  function messageBox(root) {
    for (var el = root; el && el !== document.body; el = el.parentElement) {
      var box = el.querySelector('.tv-message-box');
      if (box) { return box; }
    }
    return null;
  }
  function say(root, text) {
    var box = messageBox(root);
    if (!box || !text) { return; }
    var content = box.querySelector('.widget-html-content') || box;
    var line = document.createElement('div');
    line.className = 'tv-message tv-info tr-key-message';
    line.setAttribute('role', 'status');
    line.style.cssText = 'padding:8px 12px;margin:4px 0;border:1px solid #1f5fa8;' +
      'border-left:6px solid #1f5fa8;border-radius:6px';
    line.textContent = text;
    content.replaceChildren(line);
  }
  function fill(template, values) {
    var text = template || '';
    Object.keys(values).forEach(function (name) {
      text = text.split('{' + name + '}').join(String(values[name]));
    });
    return text;
  }
  function notNow(root, button) {
    var legend = texts(root);
    var prompt = root.querySelector('.tr-prompt');
    say(root, fill(legend ? legend.dataset.notNow : '{button}: not now. {prompt}', {
      button: (button.textContent || '').trim(),
      prompt: prompt ? prompt.textContent.trim() : ''}));
  }

  // -- the keys --------------------------------------------------------------------------
  // Wait until every change the page has made has reached the kernel. The widgets' front
  // end holds back a model's second change while its first is unanswered and sends it
  // later, after other models' changes: "3 3 X" (select card 3, then card 13 instead,
  // discard) could reach the kernel as "select 3, select 13, discard, unselect 3", and
  // the kernel would see two cards selected. A move's key waits for the widget manager's
  // models to have nothing pending (at most 5 s); a page without one (the static site)
  // does not wait.
  function settled(then) {
    var manager = window.jupyterapp && window.jupyterapp.widgetManager;
    var models = manager && manager._models;
    if (!models) { then(); return; }
    var started = Date.now();
    function check() {
      var list = models instanceof Map ? Array.from(models.values()) : Object.values(models);
      Promise.all(list).then(function (all) {
        var busy = all.some(function (m) {
          return m && (m._pending_msgs > 0 || m._msg_buffer);
        });
        if (busy && Date.now() - started < 5000) { setTimeout(check, 25); } else { then(); }
      }, then);
    }
    check();
  }
  function press(root, css) {
    var button = first(root, css);
    if (!button) { return false; }  // this seat has no such button: the key is not ours
    if (button.disabled || !visible(button)) {
      notNow(root, button);
      return true;
    }
    settled(function () {
      if (button.disabled || !visible(button)) { notNow(root, button); } else { button.click(); }
    });
    return true;
  }
  function pick(root, digit) {
    var hand = cards(root);
    var n = digit === 0 ? 10 : digit;
    var targets = [];
    for (var i = n - 1; i < hand.length; i += 10) { targets.push(i); }
    if (!targets.length) {
      var legend = texts(root);
      if (hand.length) {
        say(root, fill(legend ? legend.dataset.noCard : '', {n: n, count: hand.length}));
      }
      return hand.length > 0;
    }
    var chosen = hand.filter(selected);
    var at = chosen.length === 1 ? targets.indexOf(hand.indexOf(chosen[0])) : -1;
    var card = hand[targets[(at + 1) % targets.length]];
    if (card.disabled) { notNow(root, card); return true; }
    chosen.forEach(function (other) { if (other !== card) { other.click(); } });
    if (!selected(card)) { card.click(); }
    // on to the move that ends a turn, as the app does after a click on one card
    var discard = first(root, 'tr-discard');
    (discard && visible(discard) && !discard.disabled ? discard : card).focus();
    return true;
  }
  function move(root, key) {
    var hand = cards(root);
    var at = hand.indexOf(document.activeElement);
    if (at < 0 || !hand.length) { return false; }
    var row = document.activeElement.closest('.tv-hand-picker-row') || document.body;
    var rtl = getComputedStyle(row).direction === 'rtl';
    var next = {ArrowRight: rtl ? at - 1 : at + 1, ArrowLeft: rtl ? at + 1 : at - 1,
                Home: 0, End: hand.length - 1}[key];
    hand[Math.max(0, Math.min(hand.length - 1, next))].focus();
    return true;
  }
  function letter(event) {
    if (/^[a-z]$/i.test(event.key)) { return event.key.toLowerCase(); }
    var code = /^Key([A-Z])$/.exec(event.code || '');  // another script's layout
    return code ? code[1].toLowerCase() : '';
  }
  function digit(event) {
    var code = /^(?:Digit|Numpad)(\d)$/.exec(event.code || '');
    if (code) { return Number(code[1]); }
    return /^\d$/.test(event.key) ? Number(event.key) : -1;
  }
  function onKey(event) {
    if (event.defaultPrevented || event.ctrlKey || event.altKey || event.metaKey ||
        event.isComposing || event.shiftKey) { return; }
    var target = event.target;
    if (typing(target) || typing(document.activeElement)) { return; }
    if (document.body.classList.contains('tr-served-stopped')) { return; }
    var root = activeSeat();
    if (!root) { return; }
    var done = false;
    var key = event.key;
    if (key === 'Enter') {
      // on an offer, Enter with the focus nowhere in particular passes (the safe answer);
      // on a button (Buy, chosen by the learner, too) it is the button's own
      var focus = document.activeElement;
      if (step(root) === 'buy' && (!focus || focus === document.body || !visible(focus))) {
        done = press(root, 'tr-pass');
      }
    } else if (key === 'ArrowLeft' || key === 'ArrowRight' || key === 'Home' || key === 'End') {
      done = move(root, key);
    } else if (digit(event) >= 0) {
      if (!event.repeat) { done = pick(root, digit(event)); } else { done = true; }
    } else if (LETTERS[letter(event)]) {
      if (!event.repeat) { done = press(root, LETTERS[letter(event)]); } else { done = true; }
    }
    if (done) {
      event.preventDefault();
      event.stopPropagation();
    }
  }

  // -- the focus, the live regions, the badges -------------------------------------------
  // the focus on the seat's next action; false while that control is not ready yet (the
  // step arrived before the buttons were enabled or shown), so the next look tries again
  function focusNext(root, now) {
    if (first(root, 'tr-continue') && visible(first(root, 'tr-continue'))) { return true; }
    var focus = document.activeElement;
    var free = !focus || focus === document.body || !visible(focus) || focus.disabled ||
      (root.contains(focus) && focus.matches(MOVE_CONTROLS));
    if (!free) { return true; }  // the learner is busy elsewhere on the page
    var target = null;
    if (STEP_CONTROLS[now] && focus && root.contains(focus) && visible(focus) &&
        !focus.disabled && focus.matches(STEP_CONTROLS[now])) {
      return true;
    }
    if (now === 'buy') {
      target = first(root, 'tr-pass');
    } else if (now === 'draw') {
      target = first(root, 'tr-draw');
    } else if (now === 'play') {
      target = cards(root)[0] || null;
    } else {
      return true;
    }
    if (!target || !visible(target) || target.disabled) { return false; }
    if (target !== focus) {
      // no scroll: a learner reading the log or the rules keeps their place (the keys
      // act from anywhere on the page)
      target.focus({preventScroll: true});
    }
    root.dataset.trFocused = 'yes';
    return true;
  }
  // What the page shows changes often (a table page polls every second, its hidden
  // timer redraws): the script looks again only when a seat or a message box may have
  // changed, at most every 100 ms, and reads classes there, not the layout (except where
  // the focus is to move).
  function scan() {
    scheduled = false;
    var live = document.querySelectorAll(
      '.tv-message-box:not([aria-live]), .tr-prompt:not([aria-live])');
    for (var i = 0; i < live.length; i++) {
      live[i].setAttribute('aria-live', 'polite');
      live[i].setAttribute('aria-atomic', 'true');
    }
    var prompts = document.querySelectorAll('.tr-prompt');
    for (var k = 0; k < prompts.length; k++) {
      var root = prompts[k].closest('.tr-seat-view, .tr-play');
      if (!root) { continue; }  // the innermost seat holding this prompt
      var now = step(root);
      if (now && root.dataset.trStep !== now) {
        Object.keys(SHORTCUTS).forEach(function (css) {
          var button = root.querySelector('.' + css);
          if (button && !button.hasAttribute('aria-keyshortcuts')) {
            button.setAttribute('aria-keyshortcuts', SHORTCUTS[css]);
          }
        });
        if (visible(root) && focusNext(root, now)) { root.dataset.trStep = now; }
      } else if (!root.dataset.trFocused && ['play', 'draw', 'buy'].indexOf(now) >= 0) {
        // a page loading: the focus went nowhere yet
        var focus = document.activeElement;
        if ((!focus || focus === document.body) && visible(root)) { focusNext(root, now); }
      }
    }
  }
  var scheduled = false;
  function later() {
    if (!scheduled) {
      scheduled = true;
      window.setTimeout(scan, 100);
    }
  }
  var WATCHED = '.tr-seat-view, .tr-play, .tv-message-box';
  function changed(records) {
    for (var i = 0; i < records.length; i++) {
      var record = records[i];
      var target = record.target;
      if (target.nodeType !== 1) { continue; }
      if (record.type === 'attributes') {
        if (target.classList.contains('tr-prompt')) { later(); return; }
        continue;
      }
      if (target.closest(WATCHED)) { later(); return; }
      for (var j = 0; j < record.addedNodes.length; j++) {
        var node = record.addedNodes[j];
        if (node.nodeType === 1 && (node.matches(WATCHED) || node.querySelector(WATCHED))) {
          later();
          return;
        }
      }
    }
  }
  function start() {
    var style = document.createElement('style');
    style.id = 'toonerville-keys-style';
    style.textContent = CSS;
    document.head.appendChild(style);
    document.body.classList.add('tr-keys-on');
    document.addEventListener('keydown', onKey, true);
    new MutationObserver(changed).observe(document.body, {
      childList: true, subtree: true, attributes: true, attributeFilter: ['class']});
    later();
  }
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', start);
  } else {
    start();
  }
})();
