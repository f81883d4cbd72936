package io.pdla.simpfs;

/** 1-DV on the SSD servers with regions that are not a power of two. */
class OneDvContractTest extends SimPfsContractTest { OneDvContractTest() { super("1dv,region=7000,space=ssd"); } }
