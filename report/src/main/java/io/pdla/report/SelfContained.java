package io.pdla.report;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Everything in a page that would reach outside it: http(s) anywhere, {@code //} inside a tag, a src/href/xlink:href
 * attribute to anything but {@code #...} or {@code data:}, {@code url(...)} other than {@code url(#...)}, and the
 * elements that load things (script, link, iframe, object, embed, img, {@code @import}). The report's tests hold every
 * page to it; it is public so that other modules' tests can hold theirs to it too.
 */
public final class SelfContained {
    private static final Pattern TAG = Pattern.compile("<[^>]*>");
    private static final Pattern ATTR = Pattern.compile("(?i)\\b(src|href|xlink:href|action|poster|srcset)\\s*=\\s*('[^']*'|\"[^\"]*\"|[^\\s>]+)");
    private static final Pattern URL = Pattern.compile("(?i)url\\(\\s*['\"]?([^)'\"]*)");
    private static final Pattern LOADERS = Pattern.compile("(?i)<(script|link|iframe|object|embed|img|audio|video|source)\\b|@import");

    private SelfContained() {
    }

    /** What in {@code html} would reach outside the page; empty when nothing does. */
    public static List<String> violations(String html) {
        List<String> out = new ArrayList<>();
        for (String scheme : List.of("http:", "https:", "ftp:")) {
            int i = html.toLowerCase(java.util.Locale.ROOT).indexOf(scheme);
            if (i >= 0) out.add(scheme + " at " + i + ": " + excerpt(html, i));
        }
        Matcher tag = TAG.matcher(html);
        while (tag.find()) {
            String t = tag.group();
            if (t.contains("//")) out.add("// in a tag: " + excerpt(t, t.indexOf("//")));
            Matcher a = ATTR.matcher(t);
            while (a.find()) {
                String v = a.group(2).replaceAll("^['\"]|['\"]$", "").trim();
                if (!v.startsWith("#") && !v.startsWith("data:")) out.add(a.group(1) + "=" + v);
            }
        }
        Matcher u = URL.matcher(html);
        while (u.find()) if (!u.group(1).trim().startsWith("#") && !u.group(1).trim().startsWith("data:")) out.add("url(" + u.group(1) + ")");
        Matcher l = LOADERS.matcher(html);
        while (l.find()) out.add("loads something: " + excerpt(html, l.start()));
        return out;
    }

    private static String excerpt(String s, int i) {
        return s.substring(Math.max(0, i - 40), Math.min(s.length(), i + 40));
    }
}
