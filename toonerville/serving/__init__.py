"""The served app's server side: what Voila's own process runs for a class.

Nothing here is imported by the engine, the widgets or a kernel; Voila loads these
modules from the repository's configuration (`voila.json`, `share/voila/voila.py`):

* `kernels`: the kernel manager that caps live kernels ("the class is full"), hardens
  every kernel it starts, and culls a closed page's kernel without culling a page that
  is still loading;
* `texts`: the sentences the page itself shows (starting, full, kernel lost), in every
  language of the kit, handed to the page template.
"""
