"""The served app's server side: what Voila's own process runs for a class.

Nothing here is imported by the engine, the widgets or a kernel; Voila loads these
modules from the repository's configuration (`voila.json`, `share/voila/voila.py`):

* `kernels`: the kernel manager that caps live kernels ("the class is full") and each
  visitor's share, hardens every kernel it starts, and gives back a kernel no page uses
  without culling a page that is still loading;
* `visitors`: who asks for a page (a browser by the name the server signed into its
  cookie, the teacher by the teacher's key, else its address), how many new names one
  address may bring, told to the kernel manager while the page renders, and whether the
  visitor stayed to receive it;
* `traffic`: what one page may send its kernel (message size, messages and bytes a
  second), and that a page uses its kernel;
* `buckets`: the token buckets those limits are made of;
* `texts`: the sentences the page itself shows (starting, full, kernel lost), in every
  language of the kit, handed to the page template.
"""
