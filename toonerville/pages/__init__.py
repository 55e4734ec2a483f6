"""The app's pages: the notebooks' prose and its languages (`prose`, `prose_hook`), the
front page (`frontpage`), the static site's stand-ins (`serverless`) and the pictures
(`render`: pure SVG/HTML). Built on the engine only (docs/layout.md).
"""
