import type { Element } from "domhandler";
import { extractBlocks, textOf } from "./blocks";
import { clip, createCheck, plural } from "./check";
import { isSameSite, resolveLinks } from "./content";
import { isQuestionText, listHeadingSections } from "./questions";
import {
  findNodesWithProperty,
  findTypedNodes,
  readText,
  type StructuredDataReport,
} from "./structured-data/analyze";
import { isPresent } from "./structured-data/validate";
import { countWords } from "./text";
import type { Check, ParsedPage } from "./types";

const CONCISE_ANSWER = { min: 40, max: 60 };

interface QuestionAnswer {
  question: string;
  /** Words in the first block after the heading; 0 when nothing follows. */
  answerWords: number;
  concise: boolean;
}

export interface AeoPageReport {
  questions: QuestionAnswer[];
  checks: Check[];
}

/** Answer-engine checks that need only the page itself (bot access and llms.txt come from the site). */
export function analyzeAeoPage(page: ParsedPage, sd: StructuredDataReport): AeoPageReport {
  const questions = listHeadingSections(extractBlocks(page))
    .filter((s) => s.heading.level >= 1 && isQuestionText(s.heading.text))
    .map((s) => {
      const first = s.body[0];
      const answerWords = first && first.kind !== "code" ? countWords(first.text) : 0;
      return {
        question: s.heading.text,
        answerWords,
        concise: answerWords >= CONCISE_ANSWER.min && answerWords <= CONCISE_ANSWER.max,
      };
    });
  return {
    questions,
    checks: [
      checkQuestionHeadings(questions),
      checkConciseAnswers(questions),
      checkFaqSchema(sd, questions.length),
      checkEntity(sd),
      checkAboutLink(page),
      checkAuthor(page, sd),
    ],
  };
}

function checkQuestionHeadings(questions: QuestionAnswer[]): Check {
  if (questions.length === 0) {
    return createCheck(
      "aeo.question-headings",
      "aeo",
      "warn",
      'No headings are phrased as questions. Answer engines match pages to the questions people ask; add headings such as "What is …?" or "How do I …?".',
      [],
    );
  }
  return createCheck(
    "aeo.question-headings",
    "aeo",
    "pass",
    `${plural(questions.length, "heading is", "headings are")} phrased as questions.`,
    questions.map((q) => clip(q.question, 100)),
  );
}

function checkConciseAnswers(questions: QuestionAnswer[]): Check {
  if (questions.length === 0) {
    return createCheck(
      "aeo.concise-answers",
      "aeo",
      "warn",
      `No question headings, so there are no direct answers for engines to lift. Follow each question heading with a ${CONCISE_ANSWER.min}–${CONCISE_ANSWER.max} word answer paragraph.`,
      [],
    );
  }
  const evidence = questions.map(
    (q) => `"${clip(q.question, 70)}" → ${q.answerWords} words${q.concise ? " ✓" : ""}`,
  );
  const concise = questions.filter((q) => q.concise).length;
  if (concise * 2 >= questions.length) {
    return createCheck(
      "aeo.concise-answers",
      "aeo",
      "pass",
      `${concise} of ${questions.length} question headings are answered directly in ${CONCISE_ANSWER.min}–${CONCISE_ANSWER.max} words.`,
      evidence,
    );
  }
  return createCheck(
    "aeo.concise-answers",
    "aeo",
    "warn",
    `Only ${concise} of ${questions.length} question headings are followed by a ${CONCISE_ANSWER.min}–${CONCISE_ANSWER.max} word answer. Put a self-contained answer of that length right under each question, details after it.`,
    evidence,
  );
}

const QA_TYPES = ["FAQPage", "QAPage", "HowTo"] as const;

function checkFaqSchema(sd: StructuredDataReport, questionHeadings: number): Check {
  const present = QA_TYPES.filter((t) => findTypedNodes(sd.entities, t).length > 0);
  if (present.length === 0) {
    const message = questionHeadings
      ? `The page has ${plural(questionHeadings, "question heading")} but no FAQPage, QAPage or HowTo structured data. Mark the questions up as FAQPage so engines can read the pairs directly.`
      : "No FAQPage, QAPage or HowTo structured data. If the page answers questions or explains steps, mark them up.";
    return createCheck("aeo.faq-schema", "aeo", "warn", message, []);
  }
  const broken = sd.items.filter(
    (i) =>
      ["FAQPage", "QAPage", "HowTo", "Question", "Answer", "HowToStep"].includes(i.ruleType) &&
      (i.missingRequired.length || i.errors.length),
  );
  if (broken.length) {
    return createCheck(
      "aeo.faq-schema",
      "aeo",
      "fail",
      `${present.join(", ")} markup is present but incomplete; fix the items listed so engines can use it.`,
      broken.map(
        (i) =>
          `${i.type} at ${i.path}: ${[...i.missingRequired.map((m) => `missing ${m}`), ...i.errors].join("; ")}`,
      ),
    );
  }
  return createCheck(
    "aeo.faq-schema",
    "aeo",
    "pass",
    `${present.join(", ")} structured data is present and complete.`,
    present,
  );
}

function checkEntity(sd: StructuredDataReport): Check {
  const entities = [...findTypedNodes(sd.entities, "Organization"), ...findTypedNodes(sd.entities, "Person")];
  const named = entities.filter((e) => isPresent(e.name));
  const withSameAs = named.filter((e) => isPresent(e.sameAs));
  if (withSameAs.length) {
    return createCheck(
      "aeo.entity",
      "aeo",
      "pass",
      "The publisher is described as an entity with sameAs links, which helps engines connect the brand to its profiles.",
      withSameAs.map((e) => `${readText(e.name)} sameAs ${clip([e.sameAs].flat().join(", "), 150)}`),
    );
  }
  if (named.length) {
    return createCheck(
      "aeo.entity",
      "aeo",
      "warn",
      "An Organization/Person is described but without sameAs. Add sameAs links to the brand's official profiles (Wikipedia, Wikidata, LinkedIn, …) so engines can disambiguate it.",
      named.map((e) => readText(e.name)),
    );
  }
  return createCheck(
    "aeo.entity",
    "aeo",
    "warn",
    "No Organization (or Person) structured data names who publishes this page. Add Organization JSON-LD with name, url, logo and sameAs.",
    [],
  );
}

const ABOUT_PATH = /\/(about|about-us|company|who-we-are|our-story|team)(\/|\.html?|$)/i;

function checkAboutLink(page: ParsedPage): Check {
  const about = resolveLinks(page).filter(
    (l) => isSameSite(l.url, page.url) && (ABOUT_PATH.test(l.url.pathname) || /^about\b/i.test(l.text)),
  );
  if (about.length) {
    return createCheck(
      "aeo.about-link",
      "aeo",
      "pass",
      "The page links to an About page, a trust signal for readers and engines.",
      [about[0]?.url.href ?? ""],
    );
  }
  return createCheck(
    "aeo.about-link",
    "aeo",
    "warn",
    "No link to an About page. Link to a page explaining who is behind the site; engines weigh who publishes content.",
    [],
  );
}

function checkAuthor(page: ParsedPage, sd: StructuredDataReport): Check {
  const { $ } = page;
  const evidence: string[] = [];
  const metaAuthor = $('meta[name="author" i]').attr("content")?.trim();
  if (metaAuthor) evidence.push(`<meta name="author" content="${clip(metaAuthor, 60)}">`);
  $('a[rel~="author"], link[rel~="author"], [itemprop~="author"]').each((_, el) => {
    evidence.push(
      `<${(el as Element).name} ${(el as Element).attribs.rel ? `rel="author"` : `itemprop="author"`}> ${clip(textOf(el), 60)}`,
    );
  });
  for (const node of findNodesWithProperty(sd.entities, "author")) {
    evidence.push(
      `structured data author: ${clip(readText(node.author) || JSON.stringify(node.author), 80)}`,
    );
  }
  const byline = extractBlocks(page)
    .slice(0, 12)
    .find(
      (b) =>
        b.kind !== "heading" &&
        /^(?:[Bb]y|[Ww]ritten by|[Aa]uthor:)\s+\p{Lu}[\p{L}.'-]+(\s+\p{Lu}[\p{L}.'-]+)+/u.test(b.text),
    );
  if (byline) evidence.push(`byline: ${clip(byline.text, 80)}`);
  if (evidence.length) {
    return createCheck("aeo.author", "aeo", "pass", "The page names its author.", [...new Set(evidence)]);
  }
  return createCheck(
    "aeo.author",
    "aeo",
    "warn",
    "No author is named (no byline, meta author or structured data author). Name a real author with credentials; engines favour content with clear expertise.",
    [],
  );
}
