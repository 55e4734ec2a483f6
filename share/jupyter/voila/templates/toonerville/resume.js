/* 07's game outlives its kernel: the kernel names the page's game by a key, in a hidden
   element (.tr-game-key, data-key: toonerville/widgets/resume.py), and this script writes
   it into the page's address as ?game=KEY (history.replaceState: no reload, no new
   history entry). A reload after the kernel died or the server restarted, or a bookmark,
   then asks the new kernel for the same game, which it finds in the class store. When
   the page's notice says its kernel is gone (.tr-served-alert[data-kind=lost], the
   template's), the element's data-lost line (in the page's language) is added to it.

   A class page (09's, toonerville/widgets/classdesk.py) keeps its learner's key the same
   way: .tr-class-key (data-param, data-key) becomes ?me=KEY, so a reload of the page
   needs no name typed again.

   The teacher's class desk (09) is kept by the teacher's browser: .tr-class-teacher
   (data-class, data-key) is stored in localStorage, and a desk that comes up empty on
   this browser (a reload, the page opened again) is reopened with it: the script fills
   the desk's Reopen boxes and presses Reopen, once per page. Page 10's tournament desk
   gets the same class in its "For my class" boxes (the teacher clicks For my class), and
   page 12's class dashboard is shown for it (the desk links there with the code alone).

   Included inline by the page template (index.html.j2). A page without the elements
   (every page but 07's and 09's, or one without a store) is left as it is. */
(function () {
  'use strict';
  if (window.toonervilleResume) { return; }
  window.toonervilleResume = true;
  var KEY = /^[A-Za-z0-9_-]{16,64}$/;

  var PARAMS = {game: true, me: true};

  function keep(element, param) {
    if (!element || !PARAMS[param]) { return; }
    var key = element.getAttribute('data-key');
    if (!KEY.test(key)) { return; }
    var url = new URL(window.location.href);
    if (url.searchParams.get(param) === key) { return; }
    url.searchParams.set(param, key);
    window.history.replaceState(window.history.state, '', url.toString());
  }

  var STORED = 'toonerville-class-teacher';
  var reopened = false;

  function teacher() {
    var mine = document.querySelector('.tr-class-teacher[data-key]');
    if (mine) {
      var code = mine.getAttribute('data-class'), key = mine.getAttribute('data-key');
      if (KEY.test(key) && /^[A-Z0-9]{6}$/.test(code)) {
        try {
          window.localStorage.setItem(STORED, JSON.stringify({code: code, key: key}));
        } catch (e) { /* no storage: the teacher's key box still gives the desk back */ }
      }
      return;
    }
    offer();
    var box = document.querySelector('.tc-desk .tc-reopen-key input');
    var codeBox = document.querySelector('.tc-desk .tc-reopen-code input');
    var button = document.querySelector('.tc-desk button.tc-reopen');
    if (reopened || !box || !codeBox || !button || box.value || !box.offsetParent) {
      return;
    }
    var found = kept();
    if (!found) { return; }
    reopened = true;
    fill([[codeBox, found.code], [box, found.key]]);
    window.setTimeout(function () { button.click(); }, 300);
  }

  function kept() {
    var found = null;
    try { found = JSON.parse(window.localStorage.getItem(STORED) || 'null'); } catch (e) {}
    if (!found || !KEY.test(found.key || '') || !/^[A-Z0-9]{6}$/.test(found.code || '')) {
      return null;
    }
    return found;
  }

  function fill(pairs) {
    pairs.forEach(function (pair) {
      pair[0].value = pair[1];
      pair[0].dispatchEvent(new Event('input', {bubbles: true}));
      pair[0].dispatchEvent(new Event('change', {bubbles: true}));
    });
  }

  /* page 10: the tournament desk's "For my class" boxes get the kept class (no click) */
  var offered = false;
  function offer() {
    var code = document.querySelector('.tt-teacher .tt-class-code input');
    var key = document.querySelector('.tt-teacher .tt-class-key input');
    if (offered || !code || !key || code.value || key.value) { return; }
    var found = kept();
    if (!found) { return; }
    offered = true;
    fill([[code, found.code], [key, found.key]]);
  }

  /* page 12: the class dashboard of the class this browser's teacher keeps, opened from
     the desk's link (?class=CODE, never the key) or with no class, is shown at once */
  var dashboardShown = false;
  function dashboard() {
    var code = document.querySelector('.tv-dashboard .tv-dash-code input');
    var key = document.querySelector('.tv-dashboard .tv-dash-key input');
    var button = document.querySelector('.tv-dashboard button.tv-dash-show');
    if (dashboardShown || !code || !key || !button || key.value) { return; }
    var found = kept();
    if (!found || (code.value && code.value.trim().toUpperCase() !== found.code)) { return; }
    dashboardShown = true;
    fill([[code, found.code], [key, found.key]]);
    window.setTimeout(function () { button.click(); }, 300);
  }

  function carry() {
    keep(document.querySelector('.tr-game-key[data-key]'), 'game');
    var mine = document.querySelector('.tr-class-key[data-key]');
    if (mine) { keep(mine, mine.getAttribute('data-param')); }
  }

  function tell() {
    var element = document.querySelector('.tr-game-key[data-lost]');
    var notice = document.querySelector('.tr-served-alert[data-kind=lost]');
    if (!element || !notice || notice.querySelector('.tr-game-kept')) { return; }
    var line = document.createElement('p');
    line.className = 'tr-game-kept';
    line.textContent = element.getAttribute('data-lost');
    var button = notice.querySelector('button');
    notice.insertBefore(line, button);
  }

  var pending = false;
  new MutationObserver(function () {
    if (pending) { return; }
    pending = true;
    window.requestAnimationFrame(function () {
      pending = false; carry(); tell(); teacher(); dashboard();
    });
  }).observe(document.documentElement, {childList: true, subtree: true});
  carry();
  teacher();
  dashboard();
})();
