import { isQuestionText, toQuestion } from "@/lib/analysis/questions";
import { containsPhrase, type Keyphrase } from "./extract-keyphrases";
import { classifyIntent, type Intent } from "./intent";
import type { PageZones } from "./page-zones";
import { singular, tokenize } from "./tokenize";

export interface Topic {
  topic: string;
  score: number;
  keyphrases: string[];
  intent: Intent;
  intentReason: string;
  /** Pages of the site about the topic, strongest first (at most 5). */
  pages: { url: string; title: string | null }[];
  /** Questions asked on the site that mention the topic, for answer engines. */
  questions: { question: string; url: string }[];
}

const MAX_TOPICS = 10;
const MAX_PAGES = 5;
const MAX_QUESTIONS = 10;

/** Questions found on the pages (headings, FAQ terms, FAQPage JSON-LD), each once, with their first page. */
export function collectQuestions(pages: PageZones[]): { question: string; url: string }[] {
  const seen = new Set<string>();
  const out: { question: string; url: string }[] = [];
  for (const page of pages) {
    for (const text of page.questionCandidates) {
      if (!isQuestionText(text)) continue;
      const question = toQuestion(text);
      const key = question.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ question, url: page.url });
    }
  }
  return out;
}

/**
 * Groups keyphrases into topics: two phrases join when one contains the other ("cold brew" in "cold brew
 * coffee") or when both are multi-word phrases with the same head word ("espresso machine", "coffee machine").
 */
export function groupTopics(
  phrases: Keyphrase[],
  pages: PageZones[],
  siteNames: string[],
  questions: { question: string; url: string }[],
): Topic[] {
  const parent = phrases.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  const words = phrases.map((p) => p.key.split(" "));
  for (let i = 0; i < phrases.length; i++) {
    for (let j = i + 1; j < phrases.length; j++) {
      const a = words[i]!;
      const b = words[j]!;
      const related =
        containsPhrase(a, b) ||
        containsPhrase(b, a) ||
        (a.length > 1 && b.length > 1 && a.at(-1) === b.at(-1));
      if (related) parent[find(j)] = find(i);
    }
  }
  const groups = new Map<number, Keyphrase[]>();
  phrases.forEach((p, i) => {
    const root = find(i);
    groups.set(root, [...(groups.get(root) ?? []), p]);
  });

  const titleOf = new Map(pages.map((p) => [p.url, p.title]));
  const topics = [...groups.values()].map((members) => {
    const score = members.reduce((s, m) => s + m.score, 0);
    // Named after its strongest multi-word phrase: "cold brew coffee" says more than "coffee".
    const label = members.find((m) => m.key.includes(" ")) ?? members[0]!;
    const weights = new Map<string, number>();
    for (const m of members)
      for (const [url, w] of m.pageWeights) weights.set(url, (weights.get(url) ?? 0) + w * m.score);
    const topicPages = [...weights.entries()]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, MAX_PAGES)
      .map(([url]) => ({ url, title: titleOf.get(url) ?? null }));
    const memberKeys = members.map((m) => m.key.split(" "));
    const topicQuestions = questions
      .filter((q) => {
        const qWords = tokenize(q.question).map(singular);
        return memberKeys.some((k) => containsPhrase(qWords, k));
      })
      .slice(0, MAX_QUESTIONS);
    const { intent, reason } = classifyIntent({
      phrases: members.map((m) => m.phrase),
      siteNames,
    });
    return {
      topic: label.phrase,
      score: Math.round(score * 100) / 100,
      keyphrases: members.map((m) => m.phrase),
      intent,
      intentReason: reason,
      pages: topicPages,
      questions: topicQuestions,
    };
  });
  return topics.sort((a, b) => b.score - a.score || a.topic.localeCompare(b.topic)).slice(0, MAX_TOPICS);
}
