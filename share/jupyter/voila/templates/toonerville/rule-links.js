/* Rule ids in a page's printed output lead to the rulebook, as the ids in its prose and
   widgets do: "(T14)" printed by a cell becomes a link to the static rulebook page at
   rule T14, in the page's language, opened in a new tab. Included inline by the page
   template (index.html.j2) and, on the static site, by tools/build_site.py; printed
   outputs that arrive later (the static site runs its cells in the page) are linked as
   they appear. No kernel, no request: the page's own URL says where the rulebook is. */
(function () {
  'use strict';
  var ID = /\b(T\d{1,2}a?|H\d{1,2})\b/g;
  // printed text: Voila renders it as text/plain, a page that runs its cells as stdout
  var OUTPUT = '.jp-RenderedText[data-mime-type="text/plain"] pre, ' +
               '.jp-RenderedText[data-mime-type="application/vnd.jupyter.stdout"] pre';
  var lang = (new URLSearchParams(window.location.search).get('lang') || 'en')
    .toLowerCase().split(/[-_]/)[0];
  if (!/^[a-z]{2}$/.test(lang)) { lang = 'en'; }
  var site = window.location.pathname.indexOf('/voila/') < 0;
  function href(rule) {
    if (site) {
      return 'rulebook.html' + (lang === 'en' ? '' : '?lang=' + lang) + '#' + rule;
    }
    return '../templates/toonerville/static/rulebook-' + lang + '.html#' + rule;
  }
  function linkText(node) {
    var text = node.nodeValue;
    ID.lastIndex = 0;
    if (!ID.test(text)) { return; }
    var parts = document.createDocumentFragment();
    var at = 0;
    text.replace(ID, function (id, rule, offset) {
      parts.appendChild(document.createTextNode(text.slice(at, offset)));
      var a = document.createElement('a');
      a.href = href(rule);
      a.target = '_blank';
      a.className = 'tv-rule';
      a.dataset.rule = rule;
      a.textContent = id;
      parts.appendChild(a);
      at = offset + id.length;
      return id;
    });
    parts.appendChild(document.createTextNode(text.slice(at)));
    node.parentNode.replaceChild(parts, node);
  }
  function linkIn(root) {
    var outputs = root.matches && root.matches(OUTPUT) ? [root] : [];
    if (root.querySelectorAll) {
      outputs = outputs.concat(Array.prototype.slice.call(root.querySelectorAll(OUTPUT)));
    }
    outputs.forEach(function (out) {
      var walker = document.createTreeWalker(out, NodeFilter.SHOW_TEXT);
      var nodes = [];
      while (walker.nextNode()) {
        if (!walker.currentNode.parentNode.closest('a')) { nodes.push(walker.currentNode); }
      }
      nodes.forEach(linkText);
    });
  }
  function start() {
    linkIn(document.body);
    new MutationObserver(function (changes) {
      changes.forEach(function (change) {
        change.addedNodes.forEach(function (node) {
          if (node.nodeType === 1) { linkIn(node); }
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
