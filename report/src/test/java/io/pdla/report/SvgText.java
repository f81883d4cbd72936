package io.pdla.report;

import java.awt.Color;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reading a chart's SVG back: its text elements and how many shapes it filled with a colour. */
final class SvgText {
    private static final Pattern TEXT = Pattern.compile("<text[^>]*>([^<]*)</text>");

    private SvgText() {
    }

    static List<String> texts(String svg) {
        List<String> out = new ArrayList<>();
        Matcher m = TEXT.matcher(svg);
        while (m.find()) out.add(m.group(1).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"));
        return out;
    }

    /** Shapes filled with colour {@code c} (text is styled {@code fill: rgb(...)}, with a blank, and is not counted). */
    static int filled(String svg, Color c) {
        String key = "fill:rgb(" + c.getRed() + "," + c.getGreen() + "," + c.getBlue() + ")";
        int n = 0;
        for (int i = svg.indexOf(key); i >= 0; i = svg.indexOf(key, i + 1)) n++;
        return n;
    }
}
