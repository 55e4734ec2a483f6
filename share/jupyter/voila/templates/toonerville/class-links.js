/* A learner's page of a class keeps the class on every page it leads to: when the page's
   address names a class and the learner's key in it (?class=CODE&me=KEY, the class's
   link), each link of the page to another notebook page (the navigation bar, a lesson's
   "open lesson 1") carries both, so the lessons the learner opens from there count for
   the class (toonerville/widgets/progress.py: the teacher's dashboard). Links that appear
   later (widgets drawn after the page) are given them as they appear. No request: the
   page's own address says all. Included inline by the page template (index.html.j2). */
(function () {
  'use strict';
  var here = new URLSearchParams(window.location.search);
  var code = here.get('class'), me = here.get('me');
  if (!code || !me) { return; }
  var NOTEBOOK = /^(?:\.\/)?[\w.-]+\.ipynb(?:[?#].*)?$/;
  function carry(a) {
    var target = a.getAttribute('href') || '';
    if (!NOTEBOOK.test(target) || a.dataset.classCarried) { return; }
    var url = new URL(target, window.location.href);
    url.searchParams.set('class', code);
    url.searchParams.set('me', me);
    a.setAttribute('href', url.pathname.split('/').pop() + url.search + url.hash);
    a.dataset.classCarried = '1';
  }
  function all(root) {
    (root.querySelectorAll ? root.querySelectorAll('a[href]') : []).forEach(carry);
  }
  function start() {
    all(document);
    new MutationObserver(function (changes) {
      changes.forEach(function (change) {
        change.addedNodes.forEach(function (node) {
          if (node.nodeType === 1) { if (node.matches('a[href]')) { carry(node); } all(node); }
        });
      });
    }).observe(document.body, {childList: true, subtree: true});
  }
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', start);
  } else {
    start();
  }
})();
