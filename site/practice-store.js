// Toonerville Rook static site: the learner's practice positions (07's "Try it again")
// kept in the browser's localStorage. The Python kernel runs in a web worker, which has
// no localStorage, so this page script is its go-between
// (toonerville/widgets/practice_keep.py, BrowserKeeper):
// - before the kernel starts, the list kept under 'toonerville-practice' goes into the
//   kernel's environment as TOONERVILLE_PRACTICE (as url-query.js hands it the query
//   string; tools/build_site.py inlines this right after it);
// - whenever the kernel writes its list into the hidden element
//   .tr-practice-store [data-practice], the list is copied into localStorage.
// A browser that refuses storage (private mode, a full quota) keeps the list in the page.
(function () {
  var KEY = 'toonerville-practice';
  var stored = null;
  try { stored = window.localStorage.getItem(KEY); } catch (e) { stored = null; }
  var element = document.getElementById('jupyter-config-data');
  if (element && stored) {
    var config = JSON.parse(element.textContent);
    var plugins = (config.litePluginSettings = config.litePluginSettings || {});
    var id = '@jupyterlite/pyodide-kernel-extension:kernel';
    var kernel = (plugins[id] = plugins[id] || {});
    var options = (kernel.loadPyodideOptions = kernel.loadPyodideOptions || {});
    var env = (options.env = options.env || {});
    env.TOONERVILLE_PRACTICE = stored;
    element.textContent = JSON.stringify(config);
  }
  var last = stored;
  var waiting = false;
  function copy() {
    waiting = false;
    var found = document.querySelectorAll('.tr-practice-store [data-practice]');
    for (var i = 0; i < found.length; i++) {
      var text = found[i].getAttribute('data-practice');
      if (text && text !== last) {
        try { window.localStorage.setItem(KEY, text); last = text; } catch (e) { /* kept in the page */ }
      }
    }
  }
  function watch() {
    new MutationObserver(function () {
      if (!waiting) { waiting = true; setTimeout(copy, 50); }
    }).observe(document.body, {childList: true, subtree: true, attributes: true,
                               attributeFilter: ['data-practice']});
  }
  if (document.body) { watch(); } else { document.addEventListener('DOMContentLoaded', watch); }
})();
