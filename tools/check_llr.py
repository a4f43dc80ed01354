#!/usr/bin/env python3
"""Recompute the normalized-Elo GSPRT LLR of a `replab match` results.json independently.

Usage: tools/check_llr.py DIR/results.json [TOLERANCE]

An implementation of fishtest's method (pentanomial pdf with zero counts replaced by 1e-3,
the maximum-likelihood distribution with a given normalized t-value found by a short
fixed-point iteration around the secular equation, each outcome's shift weighted by
(1 + ((mu - a)/sigma)^2)/2 as in fishtest's MLE_tvalue, LLR = N * sum p_i ln(p1_i / p0_i)),
written in plain Python with no dependency, apart from the Rust crate `replab-elo`.
Exits 1 when the LLRs differ by more than TOLERANCE (default 0.02).
"""
import json
import math
import sys

def regularize(r): return [x if x>0 else 1e-3 for x in r]
def to_pdf(r):
    r=regularize(r); n=sum(r); k=len(r)
    return n, [(i/(k-1), c/n) for i,c in enumerate(r)]
def stats(pdf):
    mu=sum(a*p for a,p in pdf); var=sum(p*(a-mu)**2 for a,p in pdf); return mu,var
def secular(pdf):
    # solve sum p_i a_i/(1+x a_i)=0, x in (-1/max a, -1/min a)
    amin=min(a for a,_ in pdf); amax=max(a for a,_ in pdf)
    lo=-1/amax; hi=-1/amin
    f=lambda x: sum(p*a/(1+x*a) for a,p in pdf)
    eps=1e-12; lo+=eps*abs(lo)+1e-15; hi-=eps*abs(hi)+1e-15
    for _ in range(300):
        mid=(lo+hi)/2
        if f(mid)>0: lo=mid
        else: hi=mid
    return (lo+hi)/2
def mle_t(pdfhat, ref, s):
    pdf=[(a,1/len(pdfhat)) for a,_ in pdfhat]
    for _ in range(10):
        mu,var=stats(pdf); sigma=var**.5
        # fishtest's MLE_tvalue: the shift of each outcome carries (1 + ((mu - a)/sigma)^2)/2.
        pdf1=[(a-ref-s*sigma*(1+((mu-a)/sigma)**2)/2,p) for a,p in pdfhat]
        x=secular(pdf1)
        new=[(a,p/(1+x*d)) for (a,p),(d,_) in zip(pdfhat,pdf1)]
        done=max(abs(p-q) for (_,p),(_,q) in zip(pdf,new))<1e-9
        pdf=new
        if done: break
    return pdf
def llr_normalized(n0,n1,results):
    count,pdf=to_pdf(results)
    k=math.sqrt(2) if len(results)==5 else 1
    nd=800/math.log(10)
    t0,t1=n0/nd*k, n1/nd*k
    p0,p1=mle_t(pdf,0.5,t0),mle_t(pdf,0.5,t1)
    return count*sum(p*math.log(q1/q0) for (_,p),(_,q0),(_,q1) in zip(pdf,p0,p1))


def main():
    path = sys.argv[1]
    tolerance = float(sys.argv[2]) if len(sys.argv) > 2 else 0.02
    results = json.load(open(path))
    sprt = results["sprt"]
    ours = llr_normalized(sprt["elo0"], sprt["elo1"], results["pentanomial"])
    diff = abs(ours - sprt["llr"])
    print(f"{path}: replab LLR {sprt['llr']:.4f}, independent {ours:.4f}, difference {diff:.4f}")
    # The published vectors of fastchess's sprt_test.cpp, as a self-check of this script.
    assert round(llr_normalized(0, 2, [36027, 68692, 36433]), 2) == 0.92
    assert round(llr_normalized(0, 2, [365, 16618, 36229, 16974, 390]), 2) == 2.25
    sys.exit(0 if diff <= tolerance else 1)


if __name__ == "__main__":
    main()
