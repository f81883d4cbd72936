package io.pdla.delegate.service;

import io.pdla.access.ExtentList;
import io.pdla.storage.Layout;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DelegateDomainsTest {
    @Test
    void pageSizeHintIsReadByTheOneSizeGrammar() {
        Layout unstriped = Layout.unstriped(4096);
        assertEquals(1L << 20, DelegateDomains.of(unstriped, 2, Map.of(DelegateDomains.HINT_PAGE, "1m")).pageSize());
        assertEquals(256L << 10, DelegateDomains.of(unstriped, 2, Map.of(DelegateDomains.HINT_PAGE, "256 KiB")).pageSize());
        assertEquals(65536, DelegateDomains.of(unstriped, 2, Map.of(DelegateDomains.HINT_PAGE, "65536")).pageSize());
        // rounded up to the block size
        assertEquals(8192, DelegateDomains.of(unstriped, 2, Map.of(DelegateDomains.HINT_PAGE, "5000")).pageSize());
    }

    @Test
    void aPageSizeThatIsNotASizeNamesTheHintAndTheText() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DelegateDomains.of(Layout.unstriped(4096), 2, Map.of(DelegateDomains.HINT_PAGE, "64q")));
        assertTrue(e.getMessage().contains(DelegateDomains.HINT_PAGE) && e.getMessage().contains("64q"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> DelegateDomains.of(Layout.unstriped(4096), 2, Map.of(DelegateDomains.HINT_PAGE, "0")));
    }

    /** {@code touches} (O(1) per extent, what the bypass asks) agrees with walking every byte's owner. */
    @Test
    void touchesAgreesWithTheOwnerOfEveryByte() {
        long seed = System.nanoTime();
        Random r = new Random(seed);
        for (int c = 0; c < 2000; c++) {
            DelegateDomains domains = new DelegateDomains(1 + r.nextInt(16), 1 + r.nextInt(6));
            ExtentList.Builder b = ExtentList.builder();
            for (int i = r.nextInt(4); i >= 0; i--) b.add(r.nextInt(300), r.nextInt(r.nextBoolean() ? 8 : 120));
            ExtentList extents = b.build();
            for (int delegate = 0; delegate < domains.delegatesUsed(); delegate++) {
                boolean owns = false;
                for (int i = 0; i < extents.size() && !owns; i++) {
                    for (long off = extents.offset(i); off < extents.offset(i) + extents.length(i) && !owns; off++) {
                        owns = domains.owner(off) == delegate;
                    }
                }
                assertEquals(owns, domains.touches(extents, delegate), "seed " + seed + ", case " + c + ": page "
                        + domains.pageSize() + ", " + domains.delegatesUsed() + " delegates, delegate " + delegate + ", " + extents);
            }
        }
    }

    @Test
    void aCallWithinOnePageTouchesItsOwnerOnly() {
        DelegateDomains domains = new DelegateDomains(1 << 16, 4);
        ExtentList inPageSix = ExtentList.of(6L << 16, 100);
        assertTrue(domains.touches(inPageSix, 2));
        assertFalse(domains.touches(inPageSix, 1));
        assertFalse(domains.touches(inPageSix, 3));
        assertFalse(domains.touches(ExtentList.EMPTY, 0));
        // four pages from page 3 reach every delegate, whatever the start
        assertTrue(domains.touches(ExtentList.of((3L << 16) + 1, 3L << 16), 2));
        assertTrue(domains.touches(ExtentList.of((3L << 16) + 1, 3L << 16), 3));
    }

    /**
     * The owned stride a delegate reads ahead by never leaves its domain: on striped files of any server count,
     * stripe and delegate count, and on unstriped ones when the job's delegate count is known; unknown is 0.
     */
    @Test
    void pagesAnOwnedStrideApartHaveOneOwner() {
        long seed = System.nanoTime();
        Random r = new Random(seed);
        for (int c = 0; c < 2000; c++) {
            int servers = 1 + r.nextInt(12), delegates = 1 + r.nextInt(40);
            long stripe = 4096L << r.nextInt(6);
            Layout layout = servers == 1 ? Layout.unstriped(4096) : Layout.oneDH(Layout.ServerClass.HDD, stripe).withServers(servers, 0);
            DelegateDomains domains = DelegateDomains.of(layout, delegates, Map.of());
            long stride = DelegateDomains.ownedStride(layout, domains.pageSize(), delegates);
            String what = "seed " + seed + ", case " + c + ": " + layout + ", " + delegates + " delegates, stride " + stride;
            assertTrue(stride >= 1, what);
            for (int k = 0; k < 20; k++) {
                long page = r.nextInt(10_000);
                long there = page + (1 + r.nextInt(50)) * stride;
                assertEquals(domains.owner(page * domains.pageSize()), domains.owner(there * domains.pageSize()), what + ", page " + page);
            }
        }
        assertEquals(0, DelegateDomains.ownedStride(Layout.unstriped(4096), 65536, 0), "an unstriped file's stride needs the delegate count");
        Layout striped = Layout.oneDH(Layout.ServerClass.HDD, 65536).withServers(8, 0);
        assertEquals(8, DelegateDomains.ownedStride(striped, 65536, 0));
        assertEquals(0, DelegateDomains.ownedStride(striped, 4096, 3), "pages that are not the stripes: not known");
    }
}
