import { inlineRuns, markdownBlocks, type Inline } from '../logic/markdown';

/**
 * A Markdown document as elements. Every piece of the document reaches the page as text (Preact
 * escapes it), never as HTML, and a link keeps its target only when it is http(s) or mailto.
 */
export function Markdown({ text, headingOffset = 2 }: { text: string; headingOffset?: number }) {
  return (
    <div class="md">
      {markdownBlocks(text).map((block, i) => {
        switch (block.kind) {
          case 'heading': {
            const level = Math.min(6, block.level + headingOffset);
            const Tag = `h${level}` as 'h3';
            return (
              <Tag key={i}>
                <Runs runs={inlineRuns(block.text)} />
              </Tag>
            );
          }
          case 'list': {
            const items = block.items.map((item, j) => (
              <li key={j}>
                <Runs runs={inlineRuns(item)} />
              </li>
            ));
            return block.ordered ? <ol key={i}>{items}</ol> : <ul key={i}>{items}</ul>;
          }
          case 'code':
            return (
              <pre key={i}>
                <code>{block.text}</code>
              </pre>
            );
          case 'quote':
            return (
              <blockquote key={i}>
                <Runs runs={inlineRuns(block.text)} />
              </blockquote>
            );
          case 'rule':
            return <hr key={i} />;
          case 'paragraph':
            return (
              <p key={i}>
                <Runs runs={inlineRuns(block.text)} />
              </p>
            );
        }
      })}
    </div>
  );
}

function Runs({ runs }: { runs: Inline[] }) {
  return (
    <>
      {runs.map((run, i) => {
        switch (run.kind) {
          case 'text':
            return run.text;
          case 'code':
            return <code key={i}>{run.text}</code>;
          case 'strong':
            return (
              <strong key={i}>
                <Runs runs={run.children} />
              </strong>
            );
          case 'em':
            return (
              <em key={i}>
                <Runs runs={run.children} />
              </em>
            );
          case 'link':
            return run.href === null ? (
              <span key={i} class="unsafe-link" title="link target not followed (only http, https and mailto links are)">
                <Runs runs={run.children} />
              </span>
            ) : (
              <a key={i} href={run.href} rel="noopener noreferrer nofollow">
                <Runs runs={run.children} />
              </a>
            );
        }
      })}
    </>
  );
}
