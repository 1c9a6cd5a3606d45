// The rich-text editor for a prism (bold, italic, underline, links). Loaded as its own chunk,
// only when the owner writes: visitors never download it.
import { Placeholder } from "@tiptap/extensions";
import { type ChainedCommands, EditorContent, useEditor, useEditorState } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { Bold, Italic, Link as LinkIcon, Underline, Unlink } from "lucide-react";
import { type KeyboardEvent, type ReactNode, useId, useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import { Input } from "../../components/ui/input.tsx";
import { cn } from "../../lib/cn.ts";

export interface PrismEditorProps {
  value: string;
  onChange: (html: string) => void;
  placeholder: string;
  /** The accessible name of the editing area. */
  label: string;
}

const EMPTY_LINK = "https://";

/** The toolbar's marks: each one's button, and the command that turns it on or off. */
const marks: {
  name: "bold" | "italic" | "underline";
  label: string;
  icon: ReactNode;
  toggle: (chain: ChainedCommands) => ChainedCommands;
}[] = [
  { name: "bold", label: "Bold", icon: <Bold />, toggle: (chain) => chain.toggleBold() },
  { name: "italic", label: "Italic", icon: <Italic />, toggle: (chain) => chain.toggleItalic() },
  {
    name: "underline",
    label: "Underline",
    icon: <Underline />,
    toggle: (chain) => chain.toggleUnderline(),
  },
];

/** A link is applied only when the address is not empty and not just "https://". */
export function isApplicableLink(address: string): boolean {
  const trimmed = address.trim();
  return trimmed !== "" && trimmed !== EMPTY_LINK;
}

export function PrismEditor({ value, onChange, placeholder, label }: PrismEditorProps) {
  const [linkDraft, setLinkDraft] = useState<string | null>(null);
  const linkInputId = useId();
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: false,
        bulletList: false,
        orderedList: false,
        listItem: false,
        listKeymap: false,
        blockquote: false,
        codeBlock: false,
        code: false,
        horizontalRule: false,
        strike: false,
        link: {
          openOnClick: false,
          autolink: true,
          defaultProtocol: "https",
          protocols: ["http", "https", "mailto"],
          HTMLAttributes: { target: "_blank", rel: "noopener noreferrer nofollow ugc" },
        },
      }),
      Placeholder.configure({ placeholder }),
    ],
    content: value,
    // The editor is made once the page has mounted, in the browser alone: the server's render and
    // the first render that hydrates it both leave it out, so they agree (TipTap's advice for SSR).
    immediatelyRender: false,
    editorProps: {
      attributes: {
        class: "prism-content min-h-[200px] px-4 py-3 focus:outline-none",
        role: "textbox",
        "aria-multiline": "true",
        "aria-label": label,
      },
    },
    onUpdate: ({ editor }) => onChange(editor.isEmpty ? "" : editor.getHTML()),
  });

  const active = useEditorState({
    editor,
    selector: ({ editor }) => ({
      bold: editor?.isActive("bold") ?? false,
      italic: editor?.isActive("italic") ?? false,
      underline: editor?.isActive("underline") ?? false,
      link: editor?.isActive("link") ?? false,
    }),
  });

  if (!editor) return null;

  function openLink() {
    const current = editor?.getAttributes("link").href as string | undefined;
    setLinkDraft(current ?? EMPTY_LINK);
  }

  function applyLink() {
    if (linkDraft !== null && isApplicableLink(linkDraft)) {
      editor?.chain().focus().extendMarkRange("link").setLink({ href: linkDraft.trim() }).run();
    }
    setLinkDraft(null);
  }

  function cancelLink() {
    setLinkDraft(null);
    editor?.commands.focus();
  }

  function handleLinkKey(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "Enter") {
      event.preventDefault();
      applyLink();
    } else if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      cancelLink();
    }
  }

  return (
    <div className="rounded-xl border border-border bg-background focus-within:ring-2 focus-within:ring-ring">
      <div
        role="toolbar"
        aria-label="Formatting"
        className="flex flex-wrap gap-1 border-b border-border p-1.5"
      >
        {marks.map((mark) => (
          <ToolbarButton
            key={mark.name}
            label={mark.label}
            pressed={active?.[mark.name]}
            onClick={() => mark.toggle(editor.chain().focus()).run()}
          >
            {mark.icon}
          </ToolbarButton>
        ))}
        <ToolbarButton label="Link" pressed={active?.link} onClick={openLink}>
          <LinkIcon />
        </ToolbarButton>
        {active?.link ? (
          <ToolbarButton
            label="Remove link"
            onClick={() => editor.chain().focus().extendMarkRange("link").unsetLink().run()}
          >
            <Unlink />
          </ToolbarButton>
        ) : null}
      </div>
      {linkDraft !== null ? (
        <div className="flex items-center gap-2 border-b border-border p-2">
          <label htmlFor={linkInputId} className="sr-only">
            Link address
          </label>
          <Input
            id={linkInputId}
            autoFocus
            type="url"
            value={linkDraft}
            onChange={(event) => setLinkDraft(event.target.value)}
            onKeyDown={handleLinkKey}
            size="sm"
          />
          <Button size="sm" onClick={applyLink} disabled={!isApplicableLink(linkDraft)}>
            Apply
          </Button>
          <Button size="sm" variant="ghost" onClick={cancelLink}>
            Cancel
          </Button>
        </div>
      ) : null}
      <EditorContent editor={editor} />
    </div>
  );
}

function ToolbarButton({
  label,
  pressed,
  onClick,
  children,
}: {
  label: string;
  pressed?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Button
      variant="ghost"
      size={null}
      aria-label={label}
      aria-pressed={pressed}
      title={label}
      onMouseDown={(event) => event.preventDefault()}
      onClick={onClick}
      className={cn("size-8 rounded-md p-0 text-xs", pressed && "bg-muted text-primary")}
    >
      {children}
    </Button>
  );
}
