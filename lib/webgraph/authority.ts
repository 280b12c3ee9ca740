/**
 * The 0–100 authority score of a host or domain in one web graph snapshot.
 *
 *   positionScore(pos, N) = 100 × (1 − ln(pos) / ln(N + 1))      pos = 1 is the best rank, N = ranked vertices
 *   authority            = round(½ · positionScore(harmonic-centrality position, N)
 *                               + ½ · positionScore(PageRank position, N))
 *
 * Log-scaled because rank positions follow a power law: moving from #1,000,000 to #100,000 is as hard as from
 * #1,000 to #100, and each such step is worth the same number of points. Both centralities count equally:
 * harmonic centrality resists link farms, PageRank rewards links from strong vertices. The rank 1 vertex scores
 * 100; the last one scores just above 0. The scale is relative to the snapshot it was computed in.
 */
export function scoreAuthority(harmonicPos: number, pagerankPos: number, rankedCount: number): number {
  const n = Math.max(rankedCount, Math.max(harmonicPos, pagerankPos));
  const position = (pos: number) => 100 * (1 - Math.log(pos) / Math.log(n + 1));
  const score = 0.5 * position(harmonicPos) + 0.5 * position(pagerankPos);
  return Math.max(0, Math.min(100, Math.round(score)));
}
