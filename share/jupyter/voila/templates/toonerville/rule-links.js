/* Rule ids in a page's printed output lead to the rulebook, as the ids in its prose and
   widgets do: "(T14)" printed by a cell becomes a link to the static rulebook page at
   rule T14, in the page's language, opened in a new tab. Included inline by the page
   template (index.html.j2) and, on the static site, by tools/build_site.py; printed
   outputs that arrive later (the static site runs its cells in the page) are linked as
   they appear. No kernel, no request: the page's own URL says where the rulebook is.

   In the app (the template sets window.toonervilleApp) the rulebook is the template's
   static page under the server's Voila base (<body data-base-url>), wherever the page
   itself is: /voila/render/07-….ipynb (`voila notebooks/`, `make app`) or / (a single
   notebook, `voila notebooks/07-play-a-game.ipynb`). Links the kernel and the prose
   wrote relative to a render page (../templates/toonerville/static/…) and links to the
   rulebook notebook (rulebook.ipynb, docs/rules.md, left as written where no prose hook
   runs) are pointed there too, so they open the static page in every way of serving. */
(function () {
  'use strict';
  var ID = /\b(T\d{1,2}a?|H\d{1,2})\b/g;
  // printed text: Voila renders it as text/plain, a page that runs its cells as stdout
  var OUTPUT = '.jp-RenderedText[data-mime-type="text/plain"] pre, ' +
               '.jp-RenderedText[data-mime-type="application/vnd.jupyter.stdout"] pre';
  var lang = (new URLSearchParams(window.location.search).get('lang') || 'en')
    .toLowerCase().split(/[-_]/)[0];
  if (!/^[a-z]{2}$/.test(lang)) { lang = 'en'; }
  var app = window.toonervilleApp === true;
  var site = !app && window.location.pathname.indexOf('/voila/') < 0;
  var STATIC = 'templates/toonerville/static/';
  var RELATIVE = '../' + STATIC;
  var NOTEBOOK = /^(?:\.\.\/|\.\/)?(?:(?:docs\/)?rules\.md|rulebook\.ipynb)(?:\?[^#]*)?(#.*)?$/;
  function voilaBase() {
    return (document.body && document.body.dataset.baseUrl) || '/voila/';
  }
  function href(rule) {
    if (site) {
      return 'rulebook.html' + (lang === 'en' ? '' : '?lang=' + lang) + '#' + rule;
    }
    return (app ? voilaBase() + STATIC : RELATIVE) + 'rulebook-' + lang + '.html#' + rule;
  }
  // a link to the rulebook, as the app serves it from this page
  function served(a) {
    var target = a.getAttribute('href') || '';
    if (target.indexOf(RELATIVE) === 0) {
      a.setAttribute('href', voilaBase() + target.slice(3));
      return;
    }
    var notebook = NOTEBOOK.exec(target);
    if (notebook) {
      a.setAttribute('href', voilaBase() + STATIC + 'rulebook-' + lang + '.html' +
                     (notebook[1] || ''));
    }
  }
  var LINKS = 'a[href^="' + RELATIVE + '"], a[href*="rules.md"], a[href*="rulebook.ipynb"]';
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
    if (app) {
      if (root.matches && root.matches(LINKS)) { served(root); }
      if (root.querySelectorAll) {
        Array.prototype.forEach.call(root.querySelectorAll(LINKS), served);
      }
    }
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
