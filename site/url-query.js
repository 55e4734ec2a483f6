// Toonerville Rook static site: hand the page's query string (?seed= ?lang= ?size=) to
// the Python kernel, which runs in a web worker and cannot see the page's URL.
// tools/build_site.py inlines this right after Voici's #jupyter-config-data, before any
// Voici script reads that configuration: the Pyodide kernel then starts with
// QUERY_STRING in os.environ, exactly as a Voila kernel does.
(function () {
  var element = document.getElementById('jupyter-config-data');
  if (!element) {
    return;
  }
  var config = JSON.parse(element.textContent);
  var plugins = (config.litePluginSettings = config.litePluginSettings || {});
  var id = '@jupyterlite/pyodide-kernel-extension:kernel';
  var kernel = (plugins[id] = plugins[id] || {});
  var options = (kernel.loadPyodideOptions = kernel.loadPyodideOptions || {});
  var env = (options.env = options.env || {});
  env.HOME = env.HOME || '/home/pyodide';
  env.QUERY_STRING = window.location.search.replace(/^\?/, '');
  element.textContent = JSON.stringify(config);
})();
