package io.pdla.costmodel;

/**
 * The two readings of the first (connection) term of the 2-D formula [formulas.md 1.2, open question 1].
 * All three copies of the published table print {@code max(m*ceil(p/n), ceil(p/g))*e}; counting connections
 * from first principles (each client node opens {@code m*ceil(n/g)} connections, each server accepts
 * {@code ceil(p/g)}) gives {@code max(m*ceil(n/g), ceil(p/g))*e}, which S4 also uses. We believe the printed
 * form is a typo or OCR artefact but cannot prove it, so both are available; {@link #DERIVED} is the default.
 */
public enum TwoDConnectionTerm {
    /** {@code max(m*ceil(n/g), ceil(p/g)) * e} [R, derived; agrees with S4's p&lt;=g branch]. */
    DERIVED,
    /** {@code max(m*ceil(p/n), ceil(p/g)) * e} [V-ocr, S1 Table 2 = S2 Table I as printed]. */
    PRINTED
}
