// Vite client types for the renderer (`?worker` imports, import.meta.env).
/// <reference types="vite/client" />
