"""An SVG picture built element by element, for the diagrams (docs/figures.py) and charts (docs/charts.py)."""

FONT = "DejaVu Sans, Arial, sans-serif"


class Svg:
    """An SVG picture built element by element."""

    def __init__(self, width, height, title):
        self.width, self.height, self.parts = width, height, []
        self.parts.append("<title>%s</title>" % title)
        self.parts.append('<rect width="%d" height="%d" fill="white"/>' % (width, height))

    def rect(self, x, y, w, h, fill="none", stroke="#333", width=1):
        self.parts.append('<rect x="%g" y="%g" width="%g" height="%g" fill="%s" stroke="%s" stroke-width="%g"/>'
                          % (x, y, w, h, fill, stroke, width))

    def text(self, x, y, words, size=12, anchor="start", weight="normal", fill="#000"):
        words = words.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        self.parts.append('<text x="%g" y="%g" font-size="%g" text-anchor="%s" font-weight="%s" fill="%s">%s</text>'
                          % (x, y, size, anchor, weight, fill, words))

    def line(self, x1, y1, x2, y2, stroke="#333", width=1, arrow=False):
        end = ' marker-end="url(#arrow)"' if arrow else ""
        self.parts.append('<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="%s" stroke-width="%g"%s/>'
                          % (x1, y1, x2, y2, stroke, width, end))

    def render(self):
        head = ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
                'font-family="%s">\n<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
                'markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#333"/></marker></defs>\n'
                % (self.width, self.height, self.width, self.height, FONT))
        return head + "\n".join(self.parts) + "\n</svg>\n"

    def circle(self, x, y, r, fill="#333", stroke="#333", width=1):
        self.parts.append('<circle cx="%g" cy="%g" r="%g" fill="%s" stroke="%s" stroke-width="%g"/>'
                          % (x, y, r, fill, stroke, width))

    def polyline(self, points, stroke="#333", width=1, dash=None):
        path = " ".join("%.1f,%.1f" % p for p in points)
        dashes = ' stroke-dasharray="%s"' % dash if dash else ""
        self.parts.append('<polyline points="%s" fill="none" stroke="%s" stroke-width="%g"%s/>'
                          % (path, stroke, width, dashes))
