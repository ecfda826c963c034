import { snippetParts } from '../lib/search-results';

/**
 * A search snippet with its matches in `<mark>` (issue 33); exposed for View Records' content
 * matches. The record's own text takes its direction from its first letters (`dir="auto"`), so a
 * Latin snippet keeps its order on an Arabic page.
 */
export function HighlightedSnippet({
  snippet,
  highlights,
  className = '',
}: {
  snippet: string;
  highlights: readonly (readonly [number, number])[];
  className?: string;
}) {
  return (
    <p dir="auto" className={`break-words text-sm text-slate-700 ${className}`}>
      {snippetParts(snippet, highlights).map((part, index) =>
        part.marked ? (
          <mark key={index} className="rounded-sm bg-amber-200 px-0.5 text-slate-900">
            {part.text}
          </mark>
        ) : (
          <span key={index}>{part.text}</span>
        ),
      )}
    </p>
  );
}
