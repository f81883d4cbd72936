package io.pdla.report;

import org.jfree.chart.JFreeChart;
import org.jfree.svg.SVGGraphics2D;
import org.jfree.svg.SVGHints;
import org.jfree.svg.ViewBox;

import java.awt.Rectangle;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * A chart as an inline {@code <svg>} element: JFreeChart draws into JFreeSVG's {@link SVGGraphics2D}, text as
 * {@code <text>} elements (searchable, selectable, and what the browser test reads back). Namespace declarations
 * are dropped: inside HTML the parser puts {@code <svg>} in the SVG namespace itself, and the page then names no
 * URL at all. Each chart gets its own prefix for clip-path ids, so several charts share one page.
 */
public final class Svg {
    private static final AtomicInteger NEXT = new AtomicInteger();
    private static final Pattern XMLNS = Pattern.compile("\\s+xmlns(:[A-Za-z0-9_-]+)?=('[^']*'|\"[^\"]*\")");

    static {
        System.setProperty("java.awt.headless", "true");
        // rotated labels (the vertical axis's) as rotated <text>, not as glyph outlines
        org.jfree.chart.text.TextUtils.setUseDrawRotatedStringWorkaround(false);
    }

    private Svg() {
    }

    public static String of(JFreeChart chart, int width, int height) {
        SVGGraphics2D g2 = new SVGGraphics2D(width, height);
        g2.setDefsKeyPrefix("c" + NEXT.incrementAndGet() + "_");
        g2.setRenderingHint(SVGHints.KEY_DRAW_STRING_TYPE, SVGHints.VALUE_DRAW_STRING_TYPE_STANDARD);
        chart.draw(g2, new Rectangle(0, 0, width, height));
        return XMLNS.matcher(g2.getSVGElement(null, true, new ViewBox(0, 0, width, height), null, null)).replaceAll("");
    }
}
